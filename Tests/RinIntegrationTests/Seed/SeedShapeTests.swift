import Foundation
import RinSeed
import RinStorage
import RinTestSupport
import Testing

/// The edge cases docs/CONTRACT.md §6 and the jobs need must all be present in a 50-user database.
/// Each test seeds its own file (Swift Testing makes one suite instance per test), so no
/// temporary file outlives its test.
@Suite("Seeder: shape and edge cases", .onItsOwnThread)
struct SeedShapeTests {
  let fixture: SeedFixture
  static let now = SeedFixture.now
  static let day = SeedFixture.day

  init() throws {
    fixture = try SeedFixture(users: 50)
  }

  private func count(_ sql: String) throws -> Int {
    try fixture.int(sql)
  }

  @Test("every input table has rows; output tables stay empty")
  func everyInputTableHasRows() throws {
    for table in DataContract.inputTables {
      #expect(try count("SELECT count(*) FROM \(table)") > 0, "\(table) is empty")
    }
    for table in DataContract.outputTables {
      #expect(try count("SELECT count(*) FROM \(table)") == 0, "\(table) should stay empty")
    }
  }

  @Test("birthdays: full, year-less, Feb 29 in both forms, invalid, null, and in the coming week")
  func birthdays() throws {
    #expect(try count("SELECT count(*) FROM contacts WHERE birthday = '--02-29'") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE birthday GLOB '[0-9][0-9][0-9][0-9]-02-29'") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE birthday GLOB '--[0-1][0-9]-[0-3][0-9]'") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE birthday IS NULL") > 0)
    for invalid in ["1990-02-30", "13/05/1990", "--13-01"] {
      #expect(try count("SELECT count(*) FROM contacts WHERE birthday = '\(invalid)'") > 0, "no \(invalid)")
    }
    // Month-day of each of the next 7 days (UTC), year-less or not.
    let days = (0...7).map { offset in
      String(
        ISO8601DateFormatter().string(
          from: Date(timeIntervalSince1970: TimeInterval(Self.now + offset * Self.day))
        ).prefix(10).dropFirst(5))
    }
    let list = days.map { "'\($0)'" }.joined(separator: ", ")
    #expect(try count("SELECT count(*) FROM contacts WHERE substr(birthday, -5) IN (\(list))") >= 10)
    #expect(
      try count("SELECT count(*) FROM contacts WHERE substr(birthday, -5) IN ('12-30', '12-31', '01-01')") > 0
    )
  }

  @Test("merge suggestions: exact thresholds, null and out-of-range confidences, every status")
  func mergeSuggestions() throws {
    for value in ["0.70", "0.95", "0.6999", "0.9499", "1.0", "0.0", "1.7", "-0.2"] {
      #expect(
        try count("SELECT count(*) FROM merge_suggestions WHERE confidence = \(value)") > 0, "no \(value)")
    }
    #expect(try count("SELECT count(*) FROM merge_suggestions WHERE confidence IS NULL") > 0)
    for status in ["pending", "merged", "not_same", "auto_merged"] {
      #expect(
        try count("SELECT count(*) FROM merge_suggestions WHERE status = '\(status)'") > 0, "no \(status)")
    }
    #expect(try count("SELECT count(*) FROM merge_suggestions WHERE skipped_until IS NOT NULL") > 0)
  }

  @Test("invite clicks: on and one second either side of now − 7 days, spread over 30 days")
  func inviteClicks() throws {
    let boundary = Self.now - 7 * Self.day
    for instant in [boundary - 1, boundary, boundary + 1] {
      #expect(try count("SELECT count(*) FROM invite_clicks WHERE clicked_at = \(instant)") > 0)
    }
    #expect(
      try count("SELECT count(*) FROM invite_clicks WHERE clicked_at < \(Self.now - 30 * Self.day)") == 0)
    #expect(try count("SELECT count(*) FROM invite_clicks WHERE clicked_at > \(Self.now)") == 0)
    #expect(try count("SELECT count(*) FROM invite_clicks WHERE clicked_at < \(boundary - 1)") > 0)
    #expect(
      try count("SELECT count(*) FROM invite_links WHERE length(code) <> 8 OR code GLOB '*[^A-Za-z0-9]*'")
        == 0)
    #expect(try count("SELECT count(*) FROM invite_shares WHERE shared_at > \(Self.now - 14 * Self.day)") > 0)
    #expect(try count("SELECT count(*) FROM attributions WHERE onboarded_at IS NOT NULL") > 0)
  }

  @Test("time zones: extremes, invalid and missing")
  func timeZones() throws {
    for zone in ["Pacific/Kiritimati", "Etc/GMT+12", "Australia/Lord_Howe", "Mars/Base", ""] {
      #expect(try count("SELECT count(*) FROM users WHERE timezone = '\(zone)'") > 0, "no \(zone)")
    }
    #expect(try count("SELECT count(*) FROM users WHERE timezone IS NULL") > 0)
    #expect(try count("SELECT count(DISTINCT timezone) FROM users") >= 10)
  }

  @Test("users: new, deleted, verified and unverified phones; contacts: churn and deletions")
  func lifecycle() throws {
    #expect(try count("SELECT count(*) FROM users WHERE created_at > \(Self.now - 7 * Self.day)") > 0)
    #expect(try count("SELECT count(*) FROM users WHERE deleted_at IS NOT NULL") > 0)
    #expect(try count("SELECT count(*) FROM users WHERE phone_verified = 1") > 0)
    #expect(try count("SELECT count(*) FROM users WHERE phone_verified = 0 AND phone_e164 IS NOT NULL") > 0)
    #expect(
      try count("SELECT count(*) FROM users WHERE created_at > \(Self.now) OR deleted_at > \(Self.now)") == 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE created_at > \(Self.now - 30 * Self.day)") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE deleted_at IS NOT NULL") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE edited_fields IS NOT NULL") > 0)
    #expect(try count("SELECT count(*) FROM contacts WHERE created_at > \(Self.now)") == 0)
  }

  @Test("phones and emails: real formats, subdomains, free mail, and invalid values")
  func phonesAndEmails() throws {
    #expect(
      try count(
        "SELECT count(*) FROM contact_phones WHERE raw GLOB '([2-9][0-9][0-9]) [2-9][0-9][0-9]-[0-9][0-9][0-9][0-9]'"
      ) > 0)
    #expect(
      try count(
        "SELECT count(*) FROM contact_phones WHERE raw GLOB '+1 [2-9][0-9][0-9] [2-9][0-9][0-9] [0-9][0-9][0-9][0-9]'"
      ) > 0)
    #expect(
      try count(
        "SELECT count(*) FROM contact_phones WHERE raw GLOB '+44*' OR raw GLOB '+49*' OR raw GLOB '+81*'") > 0
    )
    for invalid in ["12", "abc", ""] {
      #expect(
        try count("SELECT count(*) FROM contact_phones WHERE raw = '\(invalid)'") > 0, "no phone '\(invalid)'"
      )
    }
    for invalid in ["no-at-sign", "a@", ""] {
      #expect(
        try count("SELECT count(*) FROM contact_emails WHERE address = '\(invalid)'") > 0,
        "no email '\(invalid)'")
    }
    #expect(try count("SELECT count(*) FROM contact_emails WHERE address LIKE '%@mail.%'") > 0)
    #expect(try count("SELECT count(*) FROM contact_emails WHERE address LIKE '%@gmail.com'") > 0)
    #expect(
      try count("SELECT count(*) FROM contacts WHERE family_name LIKE '%ü%' OR family_name LIKE '%í%'") > 0)
  }

  @Test("Rin network: contacts holding other users' numbers, linked both ways")
  func rinNetwork() throws {
    #expect(
      try count(
        "SELECT count(*) FROM contact_phones p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.phone_e164 = p.raw AND u.id <> c.user_id"
      ) > 0)
    let mutual = try count(
      """
      SELECT count(*) FROM contacts a JOIN contacts b
        ON a.rin_user_id = b.user_id AND b.rin_user_id = a.user_id AND a.user_id < b.user_id
      """)
    #expect(mutual > 0)
  }

  @Test("circles: one mandatory Contacts per user, prepopulated, custom, deleted, removals")
  func circles() throws {
    #expect(
      try count("SELECT count(*) FROM users")
        == count("SELECT count(*) FROM circles WHERE kind = 'mandatory' AND name = 'Contacts'"))
    #expect(
      try count(
        "SELECT count(*) FROM (SELECT user_id FROM circles WHERE kind = 'mandatory' GROUP BY user_id HAVING count(*) > 1)"
      ) == 0)
    #expect(try count("SELECT count(*) FROM circles WHERE kind = 'prepopulated'") > 0)
    #expect(try count("SELECT count(*) FROM circles WHERE kind = 'custom'") > 0)
    #expect(try count("SELECT count(*) FROM circles WHERE deleted_at IS NOT NULL") > 0)
    // A removal never names a current member of the same circle.
    #expect(
      try count("SELECT count(*) FROM circle_removals r JOIN circle_members m USING (circle_id, contact_id)")
        == 0)
    for status in ["pending", "approved", "denied"] {
      #expect(try count("SELECT count(*) FROM access_requests WHERE status = '\(status)'") > 0)
    }
    #expect(
      try count(
        "SELECT count(*) FROM access_requests a JOIN circles c ON c.id = a.circle_id WHERE c.deleted_at IS NOT NULL"
      ) > 0)
  }

  @Test("family circles: one surname in several spellings, and at least 3 live non-members to suggest")
  func familyPattern() throws {
    let fold: (String) -> String = {
      $0.trimmingCharacters(in: .whitespaces).folding(
        options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
    let members = try fixture.rows(
      """
      SELECT ci.id, ci.user_id, c.family_name FROM circles ci
      JOIN circle_members m ON m.circle_id = ci.id JOIN contacts c ON c.id = m.contact_id
      WHERE ci.name = 'Family' AND ci.deleted_at IS NULL AND c.deleted_at IS NULL AND c.family_name IS NOT NULL
      """)
    var spellings: [String: Set<String>] = [:]  // "circle|folded" → raw spellings
    var owners: [String: String] = [:]
    for row in members {
      guard let circle = row[0], let owner = row[1], let family = row[2] else { continue }
      spellings["\(circle)|\(fold(family))", default: []].insert(family)
      owners["\(circle)|\(fold(family))"] = owner
    }
    let mixed = spellings.filter { $0.value.count >= 2 }.keys.sorted()
    #expect(!mixed.isEmpty, "no Family circle mixes spellings of one surname")
    var suggestible = 0
    for key in mixed {
      guard let owner = owners[key], let circle = key.split(separator: "|").first else { continue }
      let folded = String(key.split(separator: "|").last ?? "")
      let outside = try fixture.rows(
        """
        SELECT family_name FROM contacts WHERE user_id = \(owner) AND deleted_at IS NULL AND family_name IS NOT NULL
          AND id NOT IN (SELECT contact_id FROM circle_members WHERE circle_id = \(circle))
          AND id NOT IN (SELECT contact_id FROM circle_removals WHERE circle_id = \(circle))
        """)
      if outside.compactMap({ $0[0] }).filter({ fold($0) == folded }).count >= 3 { suggestible += 1 }
    }
    #expect(suggestible > 0)
    #expect(try count("SELECT count(*) FROM circle_removals") > 0)
  }

  @Test("home items, reminders and user state span their statuses and windows")
  func homeItemsAndState() throws {
    for status in ["open", "resolved"] {
      #expect(try count("SELECT count(*) FROM sync_conflicts WHERE status = '\(status)'") > 0)
      #expect(try count("SELECT count(*) FROM security_items WHERE status = '\(status)'") > 0)
    }
    let today = String(
      ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(Self.now))).prefix(10))
    #expect(
      try count("SELECT count(*) FROM reminders WHERE due_on = '\(today)' AND completed_at IS NULL") > 0)
    #expect(try count("SELECT count(*) FROM reminders WHERE completed_at IS NOT NULL") > 0)
    #expect(
      try count(
        "SELECT count(*) FROM reminders WHERE due_on IS NOT NULL AND due_on NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"
      ) > 0)
    #expect(try count("SELECT count(*) FROM user_state WHERE invite_prompts_shown < 3") > 0)
    #expect(try count("SELECT count(*) FROM user_state WHERE invite_prompts_shown >= 3") > 0)
    #expect(
      try count("SELECT count(*) FROM user_state WHERE last_invite_prompt_at > \(Self.now - 7 * Self.day)")
        > 0)
    #expect(
      try count("SELECT count(*) FROM user_state WHERE last_invite_prompt_at <= \(Self.now - 7 * Self.day)")
        > 0)
    #expect(try count("SELECT count(*) FROM user_state WHERE score_viewed_at IS NULL") > 0)
    #expect(try count("SELECT count(*) FROM user_state WHERE score_viewed_at IS NOT NULL") > 0)
  }
}
