import Foundation
import GRDB
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("circle-patterns on a seeded database", .onItsOwnThread)
struct CirclePatternsSeededTests {
  struct Suggestion {
    var user: Int64
    var circle: Int64
    var pattern: String
    var value: String
    var contacts: [Int64]
    var confidence: Double
  }

  /// What the tables say, read without the job's code.
  struct Facts {
    var liveContactOwner: [Int64: Int64] = [:]
    var members: Set<[Int64]> = []
    var removals: Set<[Int64]> = []
    var patternCircleOwner: [Int64: Int64] = [:]
    var emails: [Int64: [String]] = [:]
    var phones: [Int64: [String]] = [:]
    var familyNames: [Int64: String] = [:]

    static func read(_ d: Database) throws -> Facts {
      var f = Facts()
      for r in try Row.fetchAll(
        d, sql: "SELECT id, user_id, family_name FROM contacts WHERE deleted_at IS NULL")
      {
        f.liveContactOwner[r[0]] = r[1]
        if let name: String = r[2] { f.familyNames[r[0]] = name }
      }
      for r in try Row.fetchAll(d, sql: "SELECT circle_id, contact_id FROM circle_members") {
        f.members.insert([r[0], r[1]])
      }
      for r in try Row.fetchAll(d, sql: "SELECT circle_id, contact_id FROM circle_removals") {
        f.removals.insert([r[0], r[1]])
      }
      for r in try Row.fetchAll(
        d,
        sql: "SELECT id, user_id FROM circles WHERE deleted_at IS NULL AND kind IN ('prepopulated', 'custom')"
      ) {
        f.patternCircleOwner[r[0]] = r[1]
      }
      for r in try Row.fetchAll(
        d, sql: "SELECT contact_id, address FROM contact_emails WHERE address IS NOT NULL")
      {
        f.emails[r[0], default: []].append(r[1])
      }
      for r in try Row.fetchAll(d, sql: "SELECT contact_id, raw FROM contact_phones WHERE raw IS NOT NULL") {
        f.phones[r[0], default: []].append(r[1])
      }
      return f
    }

    /// Whether the contact visibly carries the value (a loose, independent check).
    func carries(_ contact: Int64, _ pattern: String, _ value: String) -> Bool {
      switch pattern {
      case "email_domain":
        return (emails[contact] ?? []).contains { address in
          let host =
            address.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "@").last ?? ""
          return host == value || host.hasSuffix("." + value)
        }
      case "area_code":
        let area = value.split(separator: "-").last.map(String.init) ?? "?"
        return (phones[contact] ?? []).contains { $0.filter(\.isNumber).contains(area) }
      case "family_name":
        let name = familyNames[contact]?.trimmingCharacters(in: .whitespacesAndNewlines)
        return name?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) == value
      default:
        return false
      }
    }
  }

  func openSuggestions(_ db: TestDatabase) throws -> [Suggestion] {
    try db.read { d in
      try Row.fetchAll(
        d,
        sql:
          "SELECT user_id, circle_id, pattern, pattern_value, contact_ids, confidence FROM circle_suggestions WHERE status = 'open'"
      ).map { r in
        let list: String = r[4]
        return Suggestion(
          user: r[0], circle: r[1], pattern: r[2], value: r[3],
          contacts: list.split(separator: ",").compactMap { Int64($0) },
          confidence: r[5])
      }
    }
  }

  @Test(arguments: Backend.available)
  func suggestionsNameOnlyLiveNonMembersThatShareThePatternAndDismissalsStick(backend: Backend) async throws {
    let db = try TestDatabase(backend, seedUsers: 100, seed: 13)
    let before = try db.contentDigest()
    let dry = await db.run(CirclePatternsJob(), TestClock.options(dryRun: true))
    #expect(dry.status == .succeeded)
    #expect(try db.contentDigest() == before, "a dry run changes no table")

    let summary = await db.run(CirclePatternsJob(), TestClock.options())
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    let inserted = summary.changes.tables["circle_suggestions"]?.inserted ?? 0
    #expect(inserted > 0)
    #expect(dry.changes.tables["circle_suggestions"]?.inserted == inserted)
    #expect((summary.counts.skipped["invalid phone"] ?? 0) > 0)
    #expect((summary.counts.skipped["invalid email"] ?? 0) > 0)

    let open = try openSuggestions(db)
    #expect(open.count == inserted)
    #expect(Set(open.map(\.pattern)) == ["email_domain", "area_code", "family_name"])
    let facts = try db.read(Facts.read)
    // Collected, then checked once: tens of thousands of candidates.
    var violations: [String] = []
    for s in open {
      if facts.patternCircleOwner[s.circle] != s.user {
        violations.append("circle \(s.circle) is no live pattern circle of \(s.user)")
      }
      if s.contacts.count < 3 || s.contacts != s.contacts.sorted() {
        violations.append("circle \(s.circle): contact list")
      }
      if !(s.confidence > 0 && s.confidence <= 1) {
        violations.append("circle \(s.circle): confidence \(s.confidence)")
      }
      for c in s.contacts {
        if facts.liveContactOwner[c] != s.user {
          violations.append("contact \(c) is no live contact of \(s.user)")
        }
        if facts.members.contains([s.circle, c]) {
          violations.append("contact \(c) is a member of circle \(s.circle)")
        }
        if facts.removals.contains([s.circle, c]) {
          violations.append("contact \(c) was removed from circle \(s.circle)")
        }
        if !facts.carries(c, s.pattern, s.value) {
          violations.append("contact \(c) does not carry the \(s.pattern)")
        }
      }
    }
    #expect(violations.isEmpty, "\(violations.prefix(10))")
    #expect(
      try db.int(
        "SELECT count(*) FROM circle_suggestions s JOIN users u ON u.id = s.user_id WHERE u.deleted_at IS NOT NULL"
      ) == 0)

    let after = try db.contentDigest()
    let again = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 3600))
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == after)
    let dryAgain = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + 3600, dryRun: true))
    #expect(dryAgain.changes.isEmpty)

    try db.execute("UPDATE circle_suggestions SET status = 'dismissed'")
    let afterDismissal = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 86_400))
    #expect(afterDismissal.changes.isEmpty, "a dismissed group does not come back")
    #expect(try db.int("SELECT count(*) FROM circle_suggestions WHERE status <> 'dismissed'") == 0)
  }
}
