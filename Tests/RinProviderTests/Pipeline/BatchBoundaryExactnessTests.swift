import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

@testable import RinStorage

/// issue 71: what the jobs write and what users are told must not depend on where a run's
/// batches end. The same seed lives the same nights twice: once cut into tiny batches whose
/// boundaries move from night to night (a `batch_size` of 1 to 4, and on some nights a
/// `batch_target` so short that the sizer cuts every batch after the first to one user, as a
/// loaded PostgreSQL does with its 200 ms), once in batches as large as the jobs allow. Every
/// output table and the outbox, row by row, must be the same after every night.
@Suite("every job: outputs do not depend on batch boundaries", .onItsOwnThread)
struct BatchBoundaryExactnessTests {
  static let day: Int64 = 86_400
  /// 2026-10-23T00:00:00Z, as `NightlyIncrementalExactnessTests`.
  static let firstMidnight: Int64 = 1_792_713_600
  /// Twice the 30 days of the retention windows (issue 71 asks for 60); the provider's answers
  /// (`withProvider`) expire within days, so that many are asked again at their owners' visits
  /// (`RefreshPhase`).
  static let nights = 60
  /// Small, so that three lives of sixty nights stay a few minutes of CI.
  static let users = 40
  /// The day of changes draws half the users each day: with 40 users, ids up to 40 give every
  /// one of its twenty kinds of change a user (`bench/day_of_changes.sql`: kind `(id / 2) % 20`).
  static let drawModulus = 2
  static let apiKeyVariable = "BATCH_BOUNDARY_KEY"

  /// `bench/day_of_changes.sql` for draw `day`, stamped `at`, as single statements.
  static func dayOfChanges(day: Int, at: Int64) throws -> [String] {
    let url = Executable.repositoryRoot.appendingPathComponent("bench/day_of_changes.sql")
    let text = try String(contentsOf: url, encoding: .utf8)
      .replacingOccurrences(of: "{{DAY}}", with: String(day))
      .replacingOccurrences(of: "{{AT}}", with: String(at))
      .replacingOccurrences(of: "{{MOD}}", with: String(drawModulus))
    let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    return code.joined(separator: "\n").split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.filter { !$0.isEmpty && $0 != "BEGIN" && $0 != "COMMIT" }
  }

  /// Both databases ask the same loopback provider, which answers a key the same whoever asks.
  /// A key left unanswered would make the lives differ for a reason that is not theirs: the stub
  /// shares this process with the suite's other tests, and on a loaded CI machine it once
  /// answered too late, so requests wait a minute before they count as failed.
  static func withProvider(_ config: RinConfig, _ stub: ProviderStub) -> RinConfig {
    var config = config
    config.jobs[EnrichmentFetchJob.self].provider = EnrichmentProviderSettings(
      name: "fake-people", url: stub.baseURL, apiKeyEnv: Self.apiKeyVariable, batchSize: 100,
      requestsPerMinute: 100_000, timeout: .seconds(60), matchTTL: .seconds(6 * 86_400),
      noMatchTTL: .seconds(3 * 86_400), concurrency: 2)
    return config
  }

  /// Tiny and uneven: the ceiling moves each night, and every third night a 1 ms target makes
  /// the time-sized batches as small as they get.
  static func tinyBatches(_ path: String, night: Int) -> RinConfig {
    var config = RinConfig.defaults(storageURL: path)
    let size = [3, 1, 2, 4][night % 4]
    config.jobs[DailyScoreJob.self].batchSize = size
    config.jobs[CirclePatternsJob.self].batchSize = size
    config.jobs[EnrichmentFetchJob.self].batchSize = size
    config.jobs[UpcomingBirthdaysJob.self].batchSize = size
    config.jobs[BadgeRecountJob.self].batchSize = size
    config.storage.batchTarget = night % 3 == 2 ? .milliseconds(1) : .seconds(60)
    return config
  }

  /// As few batches as the jobs allow: the largest ceilings, and a target no batch reaches.
  static func oneBatch(_ path: String) -> RinConfig {
    var config = RinConfig.defaults(storageURL: path)
    config.jobs[DailyScoreJob.self].batchSize = 100_000
    config.jobs[CirclePatternsJob.self].batchSize = 100_000
    config.jobs[EnrichmentFetchJob.self].batchSize = 100_000
    config.jobs[UpcomingBirthdaysJob.self].batchSize = 100_000
    config.jobs[BadgeRecountJob.self].batchSize = 100_000
    config.storage.batchTarget = .seconds(60)
    return config
  }

  /// Every table the jobs write for users, ids of generated rows aside; the snapshots from
  /// `snapshotsFrom` on, the days the score history screen reads (docs/OPERATIONS.md
  /// "Retention"): PostgreSQL drops older days a partition at a time, SQLite by the day.
  static func outputs(_ db: TestDatabase, snapshotsFrom: CalendarDate) throws -> [String: [String]] {
    let queries: [String: (SQLFragment, Int)] = [
      "score_snapshots": (
        """
        SELECT user_id, as_of, score, quality, position, stability, trust, tier, delta, formula_version
        FROM score_snapshots WHERE as_of >= \(.text(snapshotsFrom.description))
        """,
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
      "circle_suggestions": (
        "SELECT user_id, circle_id, pattern, pattern_value, contact_ids, confidence, fingerprint, status, created_at FROM circle_suggestions",
        9
      ),
      "contact_enrichments": (
        "SELECT contact_id, field, value, source, confidence, fetched_at, seen_at FROM contact_enrichments", 7
      ),
      "contacts.rin_user_id": ("SELECT id, rin_user_id FROM contacts WHERE rin_user_id IS NOT NULL", 2),
      "badge_counts": ("SELECT user_id, home, circles, score, profile, computed_at FROM badge_counts", 6),
    ]
    return try db.storage.read { tx in
      var result: [String: [String]] = [:]
      for (table, (query, columns)) in queries {
        result[table] = try tx.sortedRows(query, columns: columns)
      }
      return result
    }
  }

  /// Returns whether they are the same: the first night that differs is the one to read.
  @discardableResult
  static func expectSameOutputs(
    _ tiny: TestDatabase, _ whole: TestDatabase, after run: String, at now: Int64,
    names: (got: String, want: String) = ("tiny batches", "one batch")
  ) throws -> Bool {
    let firstKept = firstSnapshotKept(at: now)
    return try expectSame(
      outputs(tiny, snapshotsFrom: firstKept), outputs(whole, snapshotsFrom: firstKept), of: whole,
      after: run,
      names: names)
  }

  /// The first day of the snapshot window at `now`: the days the history screen reads.
  static func firstSnapshotKept(at now: Int64) -> CalendarDate {
    CalendarDate(utcInstant: UTCInstant(seconds: now - Self.snapshotWindowDays * Self.day))
  }

  /// `got` against `want`, read from `wantDB`, table by table; the rows that differ, and whose.
  static func expectSame(
    _ got: [String: [String]], _ want: [String: [String]], of wantDB: TestDatabase, after run: String,
    names: (got: String, want: String)
  ) throws -> Bool {
    for table in want.keys.sorted() where got[table] != want[table] {
      let missing = Set(want[table]!).subtracting(got[table] ?? []).sorted()
      let extra = Set(got[table] ?? []).subtracting(want[table]!).sorted()
      let whose = try owners(of: missing + extra, in: table, wantDB)
      Issue.record(
        """
        after \(run), \(table) in \(names.got) against \(names.want): missing \(Array(missing.prefix(4))), \
        extra \(Array(extra.prefix(4)))\(whose)
        """)
    }
    return got == want
  }

  /// For rows keyed by contact: whose contacts they are, the user a difference is about.
  static func owners(of rows: [String], in table: String, _ db: TestDatabase) throws -> String {
    guard table == "contact_enrichments", !rows.isEmpty else { return "" }
    let contacts = Set(rows.compactMap { $0.split(separator: "|").first.flatMap { Int64($0) } }).sorted()
    let list = contacts.prefix(20).map(String.init).joined(separator: ", ")
    let owners = try db.strings(
      "SELECT DISTINCT user_id FROM contacts WHERE id IN (\(list)) ORDER BY user_id")
    return "; contacts \(contacts.prefix(20)) of users \(owners)"
  }

  /// The nightly pipeline at 02:30, the hourly at 03:00 and the retention pipeline at 03:15
  /// (pipelines.yaml), each job at its pipeline's instant, as the bench's year runs them.
  static let runs: [(any Job, Int64)] = [
    (EnrichmentFetchJob(), 9000), (CirclePatternsJob(), 9000), (DailyScoreJob(), 9000),
    (BadgeRecountJob(), 9000), (UpcomingBirthdaysJob(), 10_800), (AttributionExpiryJob(), 11_700),
    (HistoryRetentionJob(), 11_700),
  ]

  static let snapshotWindowDays: Int64 = 30

  /// The bench's short windows: retention reaches the first nights within the test.
  static func withShortWindows(_ config: RinConfig) -> RinConfig {
    var config = config
    config.jobs[HistoryRetentionJob.self].keep.scoreSnapshots = .seconds(Self.snapshotWindowDays * Self.day)
    config.jobs[HistoryRetentionJob.self].keep.notificationOutbox = .seconds(14 * 86_400)
    config.jobs[HistoryRetentionJob.self].keep.circleSuggestions = .seconds(30 * 86_400)
    config.jobs[HistoryRetentionJob.self].keep.jobRuns = .seconds(30 * 86_400)
    return config
  }

  /// What the app and the delivery service write at `at` (bench/harness/year.py): each queued
  /// invite prompt shown (every other one dismissed) and taken off the queue; the outbox sent,
  /// but for a backlog of three days for users with id % 50 = 0.
  static func appAndDelivery(_ db: TestDatabase, at: Int64) throws {
    try db.execute(
      """
      INSERT INTO user_state (user_id, invite_prompts_shown)
        SELECT DISTINCT q.user_id, 0 FROM invite_prompt_queue q
        WHERE NOT EXISTS (SELECT 1 FROM user_state s WHERE s.user_id = q.user_id) ORDER BY q.user_id
      """)
    try db.execute(
      """
      UPDATE user_state SET invite_prompts_shown = coalesce(invite_prompts_shown, 0) + 1,
        last_invite_prompt_at = ?,
        last_invite_dismissed_at = CASE WHEN user_id % 2 = 0 THEN ? ELSE last_invite_dismissed_at END
      WHERE user_id IN (SELECT user_id FROM invite_prompt_queue)
      """, [at - 3_600, at - 3_000])
    try db.execute("DELETE FROM invite_prompt_queue")
    try db.execute(
      """
      UPDATE notification_outbox SET sent_at = created_at + 300
      WHERE sent_at IS NULL AND (user_id % 50 <> 0 OR created_at < ?)
      """, [at - 3 * Self.day])
  }

  /// Five users lose most of their contacts on day 2 and get them back on day 25.
  static func lossAndReturn(_ db: TestDatabase, night: Int, at: Int64) throws {
    let owners = "SELECT id FROM users WHERE deleted_at IS NULL AND id % 23 = 5"
    if night == 2 {
      try db.execute(
        "UPDATE contacts SET deleted_at = ?, updated_at = ? WHERE deleted_at IS NULL AND id % 5 <> 0 AND user_id IN (\(owners))",
        [at, at])
    } else if night == 25 {
      try db.execute(
        "UPDATE contacts SET deleted_at = NULL, updated_at = ? WHERE deleted_at = ? AND user_id IN (\(owners))",
        [at, at - 23 * Self.day])
    }
  }

  /// Each night a few owners add a card with the numbers and addresses of one contact of
  /// another book: owners in different refresh phases, all examined tonight, ask the same keys,
  /// whose answers some of them still hold (the mechanism of issue 71, which the seed's own books
  /// share too rarely to show).
  static func sharedCards(_ db: TestDatabase, night: Int, at: Int64) throws {
    // Read through the storage module, as `outputs` reads: on PostgreSQL a read of the test
    // database first copies every table changed since into its snapshot, the whole day's
    // changes each night, on the suite's longest test, for one id.
    let contact = try db.storage.read { tx in
      try tx.sql.integerValue(
        """
        SELECT min(c.id) AS value FROM contacts c WHERE c.deleted_at IS NULL AND c.id % 29 = \(night % 29)
          AND EXISTS (SELECT 1 FROM contact_phones p WHERE p.contact_id = c.id)
        """
      )
    }
    guard let contact else { return }
    try db.execute(
      """
      INSERT INTO contacts (user_id, given_name, family_name, display_name, source, created_at, updated_at)
        SELECT id, 'Shared', 'Card', 'shared card', 'manual', ?, ? FROM users
        WHERE deleted_at IS NULL AND id % 7 = ? ORDER BY id
      """, [at, at, night % 7])
    let cards = "SELECT id FROM contacts WHERE created_at = ? AND display_name = 'shared card'"
    try db.execute(
      "INSERT INTO contact_phones (contact_id, raw, label) SELECT n.id, p.raw, p.label FROM (\(cards)) n, contact_phones p WHERE p.contact_id = ? ORDER BY n.id, p.raw",
      [at, contact])
    try db.execute(
      "INSERT INTO contact_emails (contact_id, address, label) SELECT n.id, e.address, e.label FROM (\(cards)) n, contact_emails e WHERE e.contact_id = ? ORDER BY n.id, e.address",
      [at, contact])
  }

  /// One of the databases that live the nights, and how its runs are cut into batches. Each
  /// lives on a thread of its own (`executor`), so that the lives of a night's step run at once
  /// rather than one after another: the test is the suite's longest.
  struct Life: Sendable {
    let name: String
    let db: TestDatabase
    let cutting: @Sendable (_ path: String, _ night: Int) -> RinConfig
    let executor = DedicatedExecutor()
  }

  /// `body` for every life at once, each on its life's thread; the results in the lives' order.
  static func eachLife<T: Sendable>(
    _ lives: [Life], _ body: @escaping @Sendable (Life) async throws -> T
  ) async throws -> [T] {
    try await withThrowingTaskGroup(of: (Int, T).self) { group in
      for (index, life) in lives.enumerated() {
        group.addTask(executorPreference: life.executor) { (index, try await body(life)) }
      }
      var results: [(Int, T)] = []
      for try await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  /// The same seed lives `nights` nights three times: on SQLite and on PostgreSQL cut into tiny
  /// batches, and on SQLite in one batch. After every job of every night the tiny SQLite
  /// database must equal the one batch (batches do not change outputs) and the PostgreSQL one
  /// (the backends agree). Without a server (outside CI), the PostgreSQL life is left out.
  static func liveNights(nights: Int) async throws {
    let stub = try await ProviderStub.start(apiKey: "batch-secret", fallback: .fakePeople, keepRecords: false)
    defer { Task { await stub.stop() } }
    let environment = RuntimeEnvironment(variables: [Self.apiKeyVariable: "batch-secret"])
    func seeded(_ backend: Backend) async throws -> TestDatabase {
      try await offPool {
        try TestDatabase(backend, seedUsers: Self.users, seed: 71, now: Self.firstMidnight)
      }
    }
    let tiny = Life(name: "SQLite in tiny batches", db: try await seeded(.sqlite), cutting: Self.tinyBatches)
    let whole = Life(
      name: "SQLite in one batch", db: try await seeded(.sqlite), cutting: { path, _ in Self.oneBatch(path) })
    var lives = [tiny, whole]
    if Backend.available.contains(.postgres) {
      lives.append(
        Life(name: "PostgreSQL in tiny batches", db: try await seeded(.postgres), cutting: Self.tinyBatches))
    }
    defer { for life in lives { life.executor.shutdown() } }
    nights: for night in 0..<nights {
      let midnight = Self.firstMidnight + Int64(night) * Self.day
      if night > 0 {
        let noon = midnight - 12 * 3600
        let changes = try Self.dayOfChanges(day: night, at: noon)
        _ = try await Self.eachLife(lives) { life in
          try Self.appAndDelivery(life.db, at: noon)
          for statement in changes { try life.db.execute(statement) }
          try Self.lossAndReturn(life.db, night: night, at: noon)
          try Self.sharedCards(life.db, night: night, at: noon)
        }
      }
      for (job, offset) in Self.runs {
        let options = TestClock.options(now: midnight + offset)
        let firstKept = Self.firstSnapshotKept(at: midnight + offset)
        let outputs = try await Self.eachLife(lives) { life in
          let config = Self.withShortWindows(Self.withProvider(life.cutting(life.db.path, night), stub))
          let run = await life.db.run(job, options, config: config, environment: environment)
          #expect(
            run.status == .succeeded, "\(life.name), night \(night), \(type(of: job)): \(run.error ?? "")")
          let provider = run.details[EnrichmentFetchDetails.self]
          #expect(
            (provider.keysLeftForNextRun ?? 0) == 0,
            "\(life.name), night \(night): the provider left keys unanswered (retries \(provider.providerRetries ?? 0))"
          )
          return try Self.outputs(life.db, snapshotsFrom: firstKept)
        }
        let after = "night \(night), \(type(of: job)) at +\(offset) s"
        for (other, theirs) in zip(lives, outputs).dropFirst() {
          guard
            try Self.expectSame(
              outputs[0], theirs, of: other.db, after: after, names: (tiny.name, other.name))
          else { break nights }
        }
      }
    }
    // The nights told users things: the comparison is not between two empty outboxes.
    #expect(try whole.db.int("SELECT count(DISTINCT kind) FROM notification_outbox") >= 3)
    #expect(try whole.db.int("SELECT count(*) FROM contacts WHERE display_name = 'shared card'") > 0)
  }

  @Test func sixtyNightsTellTheSameWhateverTheBatchesAndTheBackend() async throws {
    try await Self.liveNights(nights: Self.nights)
  }

  /// Answers last 30 days; with a batch of `batchSize` examined owners.
  static func sharedKeyConfig(_ db: TestDatabase, _ stub: ProviderStub, batchSize: Int) -> RinConfig {
    var config = Self.withProvider(RinConfig.defaults(storageURL: db.path), stub)
    config.jobs[EnrichmentFetchJob.self].provider?.matchTTL = Self.sharedKeyTTL
    config.jobs[EnrichmentFetchJob.self].provider?.noMatchTTL = Self.sharedKeyTTL
    config.jobs[EnrichmentFetchJob.self].batchSize = batchSize
    return config
  }

  static let sharedKeyTTL = Duration.seconds(30 * 86_400)

  /// Owners A < B for night `night`: B has a contact the provider enriched (on the first night,
  /// its answers expiring at `expires`), and its next visit is after `expires`; A's is before.
  /// Returns A, B and B's contact.
  static func ownersSharingKeys(_ db: TestDatabase, night: Int64, expires: Int64) throws -> (
    a: Int64, b: Int64, contact: Int64
  ) {
    let phase = RefreshPhase(shortestTTL: Self.sharedKeyTTL)
    func visitsBefore(_ owner: Int64) -> Bool {
      phase.horizon(owner: UserID(rawValue: owner), now: UTCInstant(seconds: night)).seconds < expires
    }
    let enriched = try db.strings(
      """
      SELECT DISTINCT c.user_id || ' ' || c.id FROM contacts c JOIN contact_enrichments x ON x.contact_id = c.id
      WHERE x.source = 'fake-people' AND c.deleted_at IS NULL ORDER BY c.user_id DESC, c.id
      """
    ).map { $0.split(separator: " ").compactMap { Int64($0) } }
    let b = try #require(enriched.first { !visitsBefore($0[0]) })
    let users = try db.strings("SELECT id FROM users WHERE deleted_at IS NULL AND id < ? ORDER BY id", [b[0]])
    let a = try #require(users.compactMap { Int64($0) }.first(where: visitsBefore))
    return (a, b[0], b[1])
  }

  /// A's new contact has the numbers and addresses of B's `contact`, which gains an address:
  /// both owners are examined tonight, and both contacts ask the same keys.
  static func shareKeys(_ db: TestDatabase, a: Int64, contact: Int64, at stamp: Int64) throws {
    try db.execute(
      "INSERT INTO contacts (id, user_id, given_name, created_at, updated_at) VALUES (900071, ?, 'Copy', ?, ?)",
      [a, stamp, stamp])
    try db.execute(
      "INSERT INTO contact_phones (contact_id, raw, label) SELECT 900071, raw, label FROM contact_phones WHERE contact_id = ? ORDER BY raw",
      [contact])
    try db.execute(
      "INSERT INTO contact_emails (contact_id, address, label) SELECT 900071, address, label FROM contact_emails WHERE contact_id = ? ORDER BY address",
      [contact])
    try db.execute(
      "INSERT INTO contact_emails (contact_id, address, label) VALUES (?, 'new.address.71@initech.com', 'work')",
      [contact])
    try db.execute("UPDATE contacts SET updated_at = ? WHERE id = ?", [stamp, contact])
  }

  /// The mechanism on its own: owners A < B share a contact's keys, whose cached answers from
  /// the first night outlast A's next visit but not B's (`RefreshPhase`). Before issue 71, one
  /// batch asked the keys again for B before A's values were written (A's `fetched_at`
  /// tonight), while a batch each gave A the first night's answers (`fetched_at` then): the
  /// night A's score counted them enriched, and told A its score changed, moved with it.
  @Test func anOwnerGetsTheSameAnswersWhetherOrNotItsBatchHoldsAnotherOwnerOfTheKey() async throws {
    let stub = try await ProviderStub.start(apiKey: "batch-secret", fallback: .fakePeople, keepRecords: false)
    defer { Task { await stub.stop() } }
    let environment = RuntimeEnvironment(variables: [Self.apiKeyVariable: "batch-secret"])
    let first = Self.firstMidnight + 9000
    let tiny = try await offPool {
      try TestDatabase(.sqlite, seedUsers: 40, seed: 71, now: Self.firstMidnight)
    }
    let whole = try await offPool {
      try TestDatabase(.sqlite, seedUsers: 40, seed: 71, now: Self.firstMidnight)
    }
    for db in [tiny, whole] {
      for (job, now) in [(EnrichmentFetchJob(), first), (DailyScoreJob(), first + 600)] as [(any Job, Int64)]
      {
        let run = await db.run(
          job, TestClock.options(now: now), config: Self.sharedKeyConfig(db, stub, batchSize: 1000),
          environment: environment)
        #expect(run.status == .succeeded, "\(run.error ?? "")")
      }
    }
    // Night 10, with the first night's answers expiring on day 30.
    let night = first + 10 * Self.day
    let (a, b, contact) = try Self.ownersSharingKeys(
      tiny, night: night, expires: first + Self.sharedKeyTTL.components.seconds)
    for (db, size) in [(tiny, 1), (whole, 1000)] {
      try Self.shareKeys(db, a: a, contact: contact, at: night - 12 * 3600)
      for (job, now) in [(EnrichmentFetchJob(), night), (DailyScoreJob(), night + 600)] as [(any Job, Int64)]
      {
        let run = await db.run(
          job, TestClock.options(now: now), config: Self.sharedKeyConfig(db, stub, batchSize: size),
          environment: environment)
        #expect(run.status == .succeeded, "\(run.error ?? "")")
      }
    }
    let given =
      "SELECT field || '|' || value || '|' || fetched_at FROM contact_enrichments WHERE contact_id = 900071 ORDER BY 1"
    #expect(try whole.strings(given).count > 0, "A's new contact was enriched")
    #expect(try tiny.strings(given) == whole.strings(given), "owner \(a) (sharing keys with owner \(b))")
    try Self.expectSameOutputs(
      tiny, whole, after: "night 10's enrichment-fetch and daily-score", at: night + 600)
  }
}
