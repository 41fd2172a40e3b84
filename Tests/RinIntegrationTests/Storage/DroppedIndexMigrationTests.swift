import Foundation
import RinDomain
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@testable import RinStorage

/// issue 53: indexes of ours on the services' tables dropped where a kept index serves their
/// reads (docs/OPERATIONS.md "Footprint"). A database one release behind, with its rows and the
/// old indexes, loses them when it is migrated (on SQLite by any job that opens it, on
/// PostgreSQL by `rinjobs migrate`, `CONCURRENTLY`), keeps the services' index on each channel
/// table, and the jobs then write there, night after night, what they write on a database that
/// never had the old indexes.
@Suite("issue 53: the dropped indexes on a database in use", .onItsOwnThread)
struct DroppedIndexMigrationTests {
  static let steps = [
    "index contact phones by contact alone again", "index contact emails by contact alone again",
    "drop the index of contacts by owner and the time they last changed",
    "drop the index of contacts linked to Rin users by owner",
    "drop the index of circle members by circle and the time they were added",
    "drop the index of circle members by contact", "drop the index of live contacts' birthdays by owner",
  ]

  /// The indexes the steps drop; on PostgreSQL the two channel ones are the services' plain
  /// indexes under the covering ones' names, and stay.
  static func dropped(_ backend: Backend) -> [String] {
    (backend == .sqlite
      ? ["contact_phones_by_contact_with_raw", "contact_emails_by_contact_with_address"] : [])
      + [
        "contacts_by_owner_and_change", "contacts_with_rin_user_by_owner",
        "circle_members_by_circle_and_added_at", "circle_members_by_contact", "contacts_birthdays_by_user",
      ]
  }

  /// The index on contact_id of each channel table, as the services have it.
  static func channelIndexes(_ backend: Backend) -> [String] {
    backend == .sqlite
      ? ["contact_phones_by_contact", "contact_emails_by_contact"]
      : ["contact_phones_by_contact_with_raw", "contact_emails_by_contact_with_address"]
  }

  /// The database as the last release left it: the steps not recorded, the old indexes back,
  /// in the DDL of the migrations that made them.
  static func putOneReleaseBehind(_ db: TestDatabase) throws {
    let ledger = db.backend == .sqlite ? "grdb_migrations" : "rin_migrations"
    for name in steps { try db.execute("DELETE FROM \(ledger) WHERE identifier = ?", [name]) }
    var ddl = [
      DataContractSchema.contactsByOwnerAndChange, DataContractSchema.contactsWithRinUserByOwner,
      DataContractSchema.circleMembersByCircleAndAddedAt, DataContractSchema.liveBirthdaysByOwner,
      "CREATE INDEX circle_members_by_contact ON circle_members(contact_id);",
    ]
    if db.backend == .sqlite { ddl.insert(DataContractSchema.coveringChannelIndexes, at: 0) }
    for text in ddl {
      let sql = db.backend == .sqlite ? text : PostgresSchema.ddl(text)
      for statement in Migrations.Step(name: "", sql: sql).statements { try db.execute(statement) }
    }
  }

  /// The index names of the database, from its catalog.
  static func indexes(_ db: TestDatabase) throws -> Set<String> {
    let query: SQLFragment =
      db.backend == .sqlite
      ? "SELECT name FROM sqlite_master WHERE type = 'index'"
      : "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    return try db.storage.read { tx in
      var names = Set<String>()
      try tx.sql.forEachRow(query) { row in if let name = row.text(0) { names.insert(name) } }
      return names
    }
  }

  /// What the jobs wrote (NightlyIncrementalExactnessTests' outputs), the suggestions, the
  /// enrichments and the contacts linked to Rin users.
  static func outputs(_ db: TestDatabase) throws -> [String: [String]] {
    var outputs = try NightlyIncrementalExactnessTests.outputs(db)
    let more: [String: (SQLFragment, Int)] = [
      "circle_suggestions": (
        "SELECT user_id, circle_id, pattern, pattern_value, contact_ids, fingerprint, status FROM circle_suggestions",
        7
      ),
      "contact_enrichments": (
        "SELECT contact_id, field, value, source, confidence FROM contact_enrichments", 5
      ),
      "contacts": ("SELECT id, rin_user_id FROM contacts WHERE rin_user_id IS NOT NULL", 2),
    ]
    try db.storage.read { tx in
      for (table, (query, columns)) in more {
        var rows: [String] = []
        try tx.sql.forEachRow(query) { row in
          rows.append((0..<columns).map { row.value($0).display }.joined(separator: "|"))
        }
        outputs[table] = rows.sorted()
      }
    }
    return outputs
  }

  static func dayOfChanges(_ day: Int, at: Int64) throws -> [String] {
    try NightlyIncrementalExactnessTests.dayOfChanges(day: day, at: at)
  }

  @Test(arguments: Backend.available) func aDatabaseOneReleaseBehindLosesThemAndItsJobsWriteTheSame(
    backend: Backend
  ) async throws {
    let now = NightlyIncrementalExactnessTests.firstMidnight
    let old = try TestDatabase(backend, seedUsers: 40, seed: 53, now: now)
    let fresh = try TestDatabase(backend, seedUsers: 40, seed: 53, now: now)
    try Self.putOneReleaseBehind(old)
    #expect(try Self.indexes(old).isSuperset(of: Self.dropped(backend)))
    if backend == .sqlite {
      #expect(
        try Self.indexes(old).isDisjoint(with: Self.channelIndexes(backend)), "the covering ones stood in")
    }

    // A job opening it leaves the drops on PostgreSQL to `rinjobs migrate`; SQLite applies them.
    let opened = try Storage.open(url: old.path)
    #expect(opened.pendingServiceIndexes == (backend == .sqlite ? [] : Self.steps))
    #expect(try Self.indexes(old).isDisjoint(with: Self.dropped(backend)) == (backend == .sqlite))
    let migrated = try Storage.open(url: old.path, options: .init(buildsServiceIndexes: true))
    #expect(migrated.pendingServiceIndexes.isEmpty)
    #expect(try migrated.pendingMigrations().isEmpty)
    let after = try Self.indexes(old)
    #expect(after.isDisjoint(with: Self.dropped(backend)), "\(after.intersection(Self.dropped(backend)))")
    #expect(after.isSuperset(of: Self.channelIndexes(backend)))
    #expect(try Self.indexes(fresh) == after, "the same indexes as a database that never had them")

    // Two nights with a day of changes between them, and a run of named users (each owner's
    // stamps asked one by one, without the pass over the stamps): the same rows on both.
    for night in 0..<2 {
      let midnight = now + Int64(night) * NightlyIncrementalExactnessTests.day
      if night > 0 {
        for db in [old, fresh] {
          for statement in try Self.dayOfChanges(night, at: midnight - 7200) { try db.execute(statement) }
        }
      }
      let jobs: [(any Job, Int64)] = [
        (UpcomingBirthdaysJob(), 1800), (EnrichmentFetchJob(), 9000), (CirclePatternsJob(), 9000),
        (DailyScoreJob(), 9000),
        (UpcomingBirthdaysJob(), 12 * 3600),
      ]
      for (job, offset) in jobs {
        for db in [old, fresh] {
          let run = await db.run(job, TestClock.options(now: midnight + offset))
          #expect(run.status == .succeeded, "\(type(of: job)): \(run.error ?? "")")
        }
        #expect(try Self.outputs(old) == Self.outputs(fresh), "night \(night), \(type(of: job))")
      }
    }
    let later = now + 2 * NightlyIncrementalExactnessTests.day
    for db in [old, fresh] {
      for statement in try Self.dayOfChanges(2, at: later - 7200) { try db.execute(statement) }
    }
    let owners = try old.strings("SELECT id FROM users WHERE deleted_at IS NULL ORDER BY id").compactMap {
      Int64($0)
    }
    let named: [any Job] = [
      EnrichmentFetchJob(), CirclePatternsJob(), DailyScoreJob(), UpcomingBirthdaysJob(),
    ]
    for job in named {
      var options = TestClock.options(now: later + 9000)
      options.userIDs = owners.map(UserID.init(rawValue:))
      let runs = [await old.run(job, options), await fresh.run(job, options)]
      #expect(runs.allSatisfy { $0.status == .succeeded }, "\(runs.map(\.error))")
      #expect(runs[0].counts.read == runs[1].counts.read, "\(type(of: job))")
      if job is DailyScoreJob || job is UpcomingBirthdaysJob {
        #expect((runs[0].counts.read["users examined (changed)"] ?? 0) > 0, "\(runs[0].counts.read)")
      }
    }
    #expect(try Self.outputs(old) == Self.outputs(fresh))
  }
}
