import Foundation
import RinDomain
import RinJobs
import RinProviderStub
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// issue 70: a deleted account or contact leaves nothing the jobs derived from it after the
  /// next night, whichever table holds it (the tables are read from the schema), and the other
  /// users' outputs are what a full recompute gives.
  @Suite("erasure of deleted accounts and contacts")
  struct ErasureTests {
    static let day: Int64 = 86_400

    /// Every pipeline's jobs of one night at `midnight`: the nightly with the provider, the
    /// hourly and the retention pipeline.
    static func night(
      _ db: TestDatabase, _ stub: ProviderStub, midnight: Int64, full: Bool = false
    ) async throws {
      let enrichment = await EnrichmentSeededTests.run(
        db, stub, TestClock.options(now: midnight + 2 * 3600 + 1800, full: full))
      #expect(enrichment.status == .succeeded, "\(enrichment.error ?? "")")
      let runs: [(any Job, Int64)] = [
        (CirclePatternsJob(), 2 * 3600 + 1900), (DailyScoreJob(), 2 * 3600 + 2000),
        (BadgeRecountJob(), 2 * 3600 + 2100), (UpcomingBirthdaysJob(), 3 * 3600),
        (HistoryRetentionJob(), 3 * 3600 + 900),
      ]
      for (job, offset) in runs {
        // The provider's settings too: history-retention finds a deleted contact's cached
        // answers under the provider's name, as the pipelines' one pipelines.yaml gives it.
        let run = await db.run(
          job, TestClock.options(now: midnight + offset, full: full),
          config: EnrichmentSeededTests.config(db, stub))
        #expect(run.status == .succeeded, "\(type(of: job)): \(run.error ?? "")")
      }
    }

    /// Rows of every table of ours (as the schema lists them) that name `account`, one of its
    /// contacts, or `contact`; and the jobs' columns of the account's `user_state`, the
    /// suggestions that list the contact and the notifications that link to it.
    static func rowsNaming(account: Int64, contact: Int64, in db: TestDatabase) throws -> [String: Int] {
      let tables = try db.storage.read { try $0.erasure.erasableTables() }
      #expect(
        tables.contains { $0.name == "contact_enrichments" }
          && tables.contains { $0.name == "score_snapshots" })
      var found: [String: Int] = [:]
      let contacts = "SELECT id FROM contacts WHERE user_id = \(account) OR id = \(contact)"
      for table in tables {
        var conditions: [String] = []
        if table.namesAccounts { conditions.append("user_id = \(account)") }
        if table.namesContacts { conditions.append("contact_id IN (\(contacts))") }
        let count = try db.int(
          "SELECT count(*) FROM \"\(table.name)\" WHERE \(conditions.joined(separator: " OR "))")
        if count > 0 { found[table.name] = count }
      }
      let extra: [String: String] = [
        "user_state (job columns)":
          "SELECT count(*) FROM user_state WHERE user_id = \(account) AND (score_changed_at IS NOT NULL OR score_card_expires_at IS NOT NULL)",
        "circle_suggestions (contact_ids)":
          "SELECT count(*) FROM circle_suggestions WHERE ',' || contact_ids || ',' LIKE '%,\(contact),%'",
        "contacts (rin_user_id)": "SELECT count(*) FROM contacts WHERE rin_user_id = \(account)",
        "contact_enrichments (rin_user)":
          "SELECT count(*) FROM contact_enrichments WHERE field = 'rin_user' AND value = '\(account)'",
        "notification_outbox (deep links)":
          "SELECT count(*) FROM notification_outbox WHERE deep_link = 'rin://contacts/\(contact)'",
      ]
      for (what, query) in extra {
        let count = try db.int(query)
        if count > 0 { found[what] = count }
      }
      let cached = try cachedAnswers(of: "c.user_id = \(account) OR c.id = \(contact)", in: db)
      if cached > 0 { found["enrichment_lookups (cached answers)"] = cached }
      return found
    }

    /// Cache rows of the provider's answers about the numbers and addresses of the contacts
    /// `condition` (over `c`) selects, hashed as enrichment-fetch hashes them.
    static func cachedAnswers(of condition: String, in db: TestDatabase) throws -> Int {
      let normalizer = RinContactNormalizer()
      let phones = try db.strings(
        """
        SELECT coalesce(u.region, '') || '|' || p.raw FROM contacts c JOIN users u ON u.id = c.user_id
        JOIN contact_phones p ON p.contact_id = c.id WHERE (\(condition)) AND p.raw IS NOT NULL
        """)
      let emails = try db.strings(
        "SELECT e.address FROM contacts c JOIN contact_emails e ON e.contact_id = c.id WHERE (\(condition)) AND e.address IS NOT NULL"
      )
      var keys = Set<String>()
      for line in phones {
        let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(
          String.init)
        if let number = normalizer.e164(raw: parts[1], ownerRegion: parts[0].isEmpty ? nil : parts[0]) {
          keys.insert(number)
        }
      }
      for raw in emails { if let address = normalizer.email(raw) { keys.insert(address) } }
      var rows = 0
      for key in keys {
        let row = LookupCacheKey(provider: "fake-people", key: LookupKey.of(normalized: key)).rowKey
        rows += try db.int(
          "SELECT count(*) FROM enrichment_lookups WHERE key_high = ? AND key_low = ?", [row.high, row.low])
      }
      return rows
    }

    /// The account with the most enriched contacts among those other books link to, and an enriched contact of another owner
    /// that a suggestion lists when there is one.
    static func chooseAccountAndContact(_ db: TestDatabase) throws -> (account: Int64, contact: Int64) {
      let account = try db.int(
        """
        SELECT c.user_id FROM contact_enrichments e JOIN contacts c ON c.id = e.contact_id
        GROUP BY c.user_id
        ORDER BY EXISTS (SELECT 1 FROM contacts r WHERE r.rin_user_id = c.user_id) DESC, count(*) DESC, c.user_id
        LIMIT 1
        """)
      let contact = try db.int(
        """
        SELECT c.id FROM contacts c WHERE c.user_id <> ? AND c.deleted_at IS NULL
          AND EXISTS (SELECT 1 FROM contact_enrichments e WHERE e.contact_id = c.id)
        ORDER BY EXISTS (SELECT 1 FROM circle_suggestions s WHERE ',' || s.contact_ids || ',' LIKE '%,' || c.id || ',%') DESC,
          c.id LIMIT 1
        """, [account])
      return (Int64(account), Int64(contact))
    }

    /// What every job writes, by table, without the rows of `account`: the outputs as users see
    /// them (ids of generated rows and clocks aside).
    static func outputs(_ db: TestDatabase, without account: Int64) throws -> [String: [String]] {
      let queries = [
        "score_snapshots": "SELECT user_id, as_of, score, delta FROM score_snapshots",
        "circle_suggestions":
          "SELECT user_id, circle_id, pattern, pattern_value, contact_ids, status FROM circle_suggestions",
        "contact_enrichments": "SELECT contact_id, field, value, source FROM contact_enrichments",
        "upcoming_events": "SELECT user_id, contact_id, kind, ref_id, occurs_on FROM upcoming_events",
        "badge_counts": "SELECT user_id, home, circles, score, profile FROM badge_counts",
        "invite_prompt_queue": "SELECT user_id, \"trigger\" FROM invite_prompt_queue",
        "notification_outbox": "SELECT user_id, kind, deep_link, payload FROM notification_outbox",
      ]
      var result: [String: [String]] = [:]
      for (table, query) in queries {
        let columns = query.replacingOccurrences(of: "SELECT ", with: "").components(separatedBy: " FROM ")[0]
        let text = columns.split(separator: ",").map { "coalesce(CAST(\($0) AS TEXT), '-')" }.joined(
          separator: " || '|' || ")
        let owner =
          table == "contact_enrichments" ? "(SELECT user_id FROM contacts WHERE id = contact_id)" : "user_id"
        result[table] = try db.strings(
          "SELECT \(text) FROM \(table) WHERE coalesce(\(owner), -1) <> \(account) ORDER BY 1")
      }
      return result
    }

    @Test(arguments: Backend.available) func aDeletedAccountAndContactLeaveNothingAfterTheNextNight(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let first = TestClock.now - TestClock.now % Self.day
      let incremental = try await offPool { try TestDatabase(backend, seedUsers: 30, seed: 7, now: first) }
      let full = try await offPool { try TestDatabase(backend, seedUsers: 30, seed: 7, now: first) }
      for night in 0..<2 {
        for (db, isFull) in [(incremental, false), (full, true)] {
          try await Self.night(db, stub, midnight: first + Int64(night) * Self.day, full: isFull)
        }
      }
      let (account, contact) = try Self.chooseAccountAndContact(incremental)
      let before = try Self.rowsNaming(account: account, contact: contact, in: incremental)
      #expect(before.count >= 6 && before["enrichment_lookups (cached answers)"] != nil, "\(before)")
      #expect(before["contacts (rin_user_id)"] != nil, "another book links to the account: \(before)")
      #expect(try Self.cachedAnswers(of: "c.id = \(contact)", in: incremental) > 0)
      // The services delete softly, in the evening before the third night.
      let evening = first + 2 * Self.day - 2 * 3600
      for db in [incremental, full] {
        try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [evening, account])
        try db.execute(
          "UPDATE contacts SET deleted_at = ?, updated_at = ? WHERE id = ?", [evening, evening, contact])
      }
      // Before retention has run, the check finds what the deletions left.
      let lingering = try incremental.storage.lingeringRows(deletedBy: UTCInstant(seconds: evening + 1))
      #expect(lingering.contains { $0.table == "contact_enrichments" && $0.rows > 0 }, "\(lingering)")
      // The hourly retention run erases before the night's jobs see the deletion: they must
      // still find every owner whose results it changes (a book that linked to the account).
      for db in [incremental, full] {
        let retention = await db.run(
          HistoryRetentionJob(), TestClock.options(now: evening + 1800),
          config: EnrichmentSeededTests.config(db, stub))
        #expect(retention.status == .succeeded, "\(retention.error ?? "")")
      }
      // A second account goes after midnight, and the hourly runs erase it before the night:
      // neither the night nor a catch-up of a day it was live writes anything about it.
      let third = first + 2 * Self.day
      let late = try incremental.int(
        "SELECT min(user_id) FROM badge_counts WHERE user_id <> ? AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)",
        [account])
      for db in [incremental, full] {
        try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [third + 1800, late])
        // Two hourly runs: the second's mark is past the deletion when the night begins.
        for at in [third + 4500, third + 8100] {
          let retention = await db.run(
            HistoryRetentionJob(), TestClock.options(now: at), config: EnrichmentSeededTests.config(db, stub))
          #expect(retention.status == .succeeded, "\(retention.error ?? "")")
        }
      }
      for (db, isFull) in [(incremental, false), (full, true)] {
        try await Self.night(db, stub, midnight: third, full: isFull)
        // A catch-up of the day before, when the account was live: it writes nothing about it.
        var catchUp = TestClock.options(now: third + 4 * 3600, full: isFull)
        catchUp.asOf = CalendarDate(utcInstant: UTCInstant(seconds: third - Self.day))
        let run = await db.run(DailyScoreJob(), catchUp, config: EnrichmentSeededTests.config(db, stub))
        #expect(run.status == .succeeded, "\(run.error ?? "")")
      }
      let left = try Self.rowsNaming(account: account, contact: contact, in: incremental)
      #expect(left == [:], "\(left)")
      let leftOfLate = try Self.rowsNaming(account: Int64(late), contact: contact, in: incremental)
      #expect(leftOfLate == [:], "deleted after midnight: \(leftOfLate)")
      let after = try incremental.storage.lingeringRows(deletedBy: UTCInstant(seconds: third + 4 * 3600))
      #expect(after.allSatisfy { $0.rows == 0 }, "\(after.filter { $0.rows > 0 })")
      let (got, want) = (
        try Self.outputs(incremental, without: account), try Self.outputs(full, without: account)
      )
      for table in want.keys.sorted() {
        let missing = Set(want[table]!).subtracting(got[table]!).sorted().prefix(3)
        let extra = Set(got[table]!).subtracting(want[table]!).sorted().prefix(3)
        #expect(got[table] == want[table], "\(table): missing \(Array(missing)), extra \(Array(extra))")
      }
    }

    @Test(arguments: Backend.available) func rowsOfAnAccountDeletedOutrightGoWithTheSweep(backend: Backend)
      async throws
    {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let first = TestClock.now - TestClock.now % Self.day
      let db = try await offPool { try TestDatabase(backend, seedUsers: 20, seed: 9, now: first) }
      try await Self.night(db, stub, midnight: first)
      let (account, contact) = try Self.chooseAccountAndContact(db)
      // An erasure request made the services delete the rows themselves: no stamp says so.
      try db.execute(
        "DELETE FROM contact_phones WHERE contact_id IN (SELECT id FROM contacts WHERE user_id = ? OR id = ?)",
        [account, contact])
      try db.execute("DELETE FROM contacts WHERE user_id = ? OR id = ?", [account, contact])
      try db.execute("DELETE FROM users WHERE id = ?", [account])
      let next = first + Self.day
      try await Self.night(db, stub, midnight: next)
      let lingering = try db.storage.lingeringRows(deletedBy: UTCInstant(seconds: next + 4 * 3600))
      #expect(lingering.contains { $0.rows > 0 }, "the sweep is not due a day after the last")
      // The sweep is due a week after the first night's.
      let retention = await db.run(
        HistoryRetentionJob(), TestClock.options(now: first + 7 * Self.day + 4 * 3600))
      #expect(retention.status == .succeeded, "\(retention.error ?? "")")
      #expect((retention.details[HistoryRetentionDetails.self].erasureSweepRowsDeleted ?? 0) > 0)
      let swept = try db.storage.lingeringRows(
        deletedBy: UTCInstant(seconds: first + 7 * Self.day + 4 * 3600))
      #expect(swept.allSatisfy { $0.rows == 0 }, "\(swept.filter { $0.rows > 0 })")
      let left = try Self.rowsNaming(account: account, contact: contact, in: db)
      #expect(left.keys.filter { !$0.contains("(") }.isEmpty, "\(left)")
    }
  }
}
