import Foundation
import RinDomain
import RinRuntime
import RinTestSupport
import Testing

@testable import RinJobs
@testable import RinStorage

/// issue 30: daily-score and upcoming-birthdays examine only the owners whose rows can differ,
/// and after every day of every kind of change write row for row what a `--full` run writes.
@Suite("daily-score and upcoming-birthdays: incremental nights equal full ones", .onItsOwnThread)
struct NightlyIncrementalExactnessTests {
  static let day: Int64 = 86_400
  /// 2026-10-23T00:00:00Z: ten days from here cross Europe's DST change (Oct 25), a month's end
  /// (Oct 31) and North America's (Nov 1).
  static let firstMidnight: Int64 = 1_792_713_600
  static let days = 10
  /// The day of changes draws a quarter of the users each day (the bench: 1 %), so that every
  /// kind of change reaches some owner of a test-sized database every day.
  static let drawModulus = 4

  /// `bench/day_of_changes.sql` for draw `day`, stamped `at`, as single statements (the test's
  /// database handle wraps each in a transaction).
  static func dayOfChanges(day: Int, at: Int64) throws -> [String] {
    let url = Executable.repositoryRoot.appendingPathComponent("bench/day_of_changes.sql")
    let text = try String(contentsOf: url, encoding: .utf8)
      .replacingOccurrences(of: "{{DAY}}", with: String(day))
      .replacingOccurrences(of: "{{AT}}", with: String(at))
      .replacingOccurrences(of: "{{MOD}}", with: String(drawModulus))
    let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    return code.joined(separator: "\n").split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.filter { !$0.isEmpty && $0 != "BEGIN" && $0 != "COMMIT" }  // each runs in a transaction of its own
  }

  /// What the jobs wrote, ids of generated rows and clocks aside, in one order. Read through
  /// the storage's own connection on both backends: cheap enough to compare after every run.
  static func outputs(_ db: TestDatabase) throws -> [String: [String]] {
    let queries: [String: (SQLFragment, Int)] = [
      "score_snapshots": (
        "SELECT user_id, as_of, score, quality, position, stability, trust, tier, delta, formula_version FROM score_snapshots",
        10
      ),
      "user_state": ("SELECT user_id, score_changed_at, score_card_expires_at FROM user_state", 3),
      "notification_outbox": (
        "SELECT user_id, kind, deep_link, payload, dedupe_key FROM notification_outbox", 5
      ),
      "invite_prompt_queue": ("SELECT user_id, \"trigger\", created_at FROM invite_prompt_queue", 3),
      "upcoming_events": (
        "SELECT user_id, contact_id, kind, ref_id, occurs_on, days_until, dismissed_at FROM upcoming_events",
        7
      ),
    ]
    return try db.storage.read { tx in
      var result: [String: [String]] = [:]
      for (table, (query, columns)) in queries {
        var rows: [String] = []
        try tx.sql.forEachRow(query) { row in
          rows.append((0..<columns).map { row.value($0).display }.joined(separator: "|"))
        }
        result[table] = rows.sorted()
      }
      return result
    }
  }

  static func expectSameOutputs(_ incremental: TestDatabase, _ full: TestDatabase, after run: String) throws {
    let (got, want) = (try outputs(incremental), try outputs(full))
    for table in want.keys.sorted() {
      let missing = Set(want[table]!).subtracting(got[table]!).sorted().prefix(3)
      let extra = Set(got[table]!).subtracting(want[table]!).sorted().prefix(3)
      let same = got[table] == want[table]
      #expect(same, "after \(run), \(table): missing \(Array(missing)), extra \(Array(extra))")
    }
  }

  /// Our own writes that no service stamp shows: an enrichment, and a contact linked to a Rin user.
  static func enrichAndLink(_ db: TestDatabase, day: Int, at: Int64) throws {
    let contact = try db.int(
      "SELECT min(id) FROM contacts WHERE deleted_at IS NULL AND rin_user_id IS NULL AND user_id % 7 = ?",
      [day % 7])
    let owner = try db.int("SELECT user_id FROM contacts WHERE id = ?", [contact])
    let target = try db.int(
      "SELECT min(id) FROM users WHERE deleted_at IS NULL AND id <> ? AND id % 5 = ?", [owner, day % 5])
    var changes = ChangeSet()
    try db.storage.write(into: &changes) { tx in
      try EnrichmentQueries(tx: tx).putEnrichment(
        userID: UserID(rawValue: Int64(owner)), contactID: ContactID(rawValue: Int64(contact)),
        field: "company", source: "test", value: "Acme",
        confidence: 0.9, fetchedAt: UTCInstant(seconds: at), isNew: true)
      try EnrichmentQueries(tx: tx).linkRinUser(
        contactID: ContactID(rawValue: Int64(contact)), userID: UserID(rawValue: Int64(target)))
    }
  }

  static func examined(_ summary: RunSummary) -> Int {
    summary.counts.read.filter { $0.key.hasPrefix("users examined") }.values.reduce(0, +)
  }

  @Test(arguments: Backend.available) func everyNightEqualsAFullRecompute(backend: Backend) async throws {
    let incremental = try TestDatabase(backend, seedUsers: 120, seed: 43, now: Self.firstMidnight)
    let full = try TestDatabase(backend, seedUsers: 120, seed: 43, now: Self.firstMidnight)
    var examinedOnQuietNights = 0
    var users = 0
    for night in 0..<Self.days {
      let midnight = Self.firstMidnight + Int64(night) * Self.day
      if night > 0 {
        // Stamped after the last hourly run before them, as the services' writes are: a
        // write stamped before a run that could not see it would be another clock's lie.
        let evening = midnight - 2 * 3600
        for db in [incremental, full] {
          for statement in try Self.dayOfChanges(day: night, at: evening) { try db.execute(statement) }
          if night % 3 == 1 { try Self.enrichAndLink(db, day: night, at: evening) }
        }
      }
      // In the order of the clock: upcoming-birthdays half an hour after the changes (most
      // owners' dates have not turned since the last run, so a change the job did not see
      // shows at once), then every six hours (every zone's date turns between two of them),
      // and the nightly's daily-score.
      let upcoming: (Int64) -> (any Job, Int64) = { (UpcomingBirthdaysJob(), $0 * 3600 + 1800) }
      let runs: [(any Job, Int64)] =
        [
          upcoming(-1), upcoming(1), (DailyScoreJob(), 2 * 3600 + 1800), upcoming(7), upcoming(13),
          upcoming(19),
        ]
      for (job, offset) in runs {
        let now = midnight + offset
        let a = await incremental.run(job, TestClock.options(now: now))
        let b = await full.run(job, TestClock.options(now: now, full: true))
        #expect(a.status == .succeeded && b.status == .succeeded, "\(a.error ?? "") \(b.error ?? "")")
        if job is DailyScoreJob {
          users = b.counts.read["users"] ?? 0
          if night > 0 { examinedOnQuietNights += Self.examined(a) }
          // After the first night, the changed owners come from one pass over the stamps.
          let pass = a.counts.read["owners with changes stamped since the last night"]
          #expect((pass != nil) == (night > 0), "night \(night): \(a.counts.read)")
        }
        // After every run, not only at the end of the day: an hourly run that missed a change
        // would be hidden by the next run that examines the owner anyway (their date turned).
        try Self.expectSameOutputs(
          incremental, full, after: "night \(night), \(type(of: job)) at +\(offset) s")
      }
      let ofDeletedAccounts = try incremental.int(
        "SELECT count(*) FROM upcoming_events e JOIN users u ON u.id = e.user_id WHERE u.deleted_at IS NOT NULL"
      )
      #expect(ofDeletedAccounts == 0, "night \(night): a deleted account keeps no upcoming events")
    }
    // The nights after the first examined the owners the day touched, not everyone.
    #expect(users > 100)
    #expect(examinedOnQuietNights > 0 && examinedOnQuietNights < users * (Self.days - 1) / 2)
    // The changes reached what the jobs write: deltas and notifications on many nights.
    let deltas = try full.int("SELECT count(DISTINCT as_of) FROM score_snapshots WHERE delta <> 0")
    #expect(deltas >= Self.days - 1)
    #expect(try full.int("SELECT count(*) FROM upcoming_events WHERE dismissed_at IS NOT NULL") > 0)
  }
}
