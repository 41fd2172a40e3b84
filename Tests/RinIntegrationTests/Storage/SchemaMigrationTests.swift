import Foundation
import GRDB
import RinTestSupport
import Testing

@testable import RinStorage

/// `rinjobs migrate --dry-run`, and the indexes on the services' tables: on PostgreSQL a job
/// leaves them to `rinjobs migrate`, which builds them `CONCURRENTLY` and resumes an
/// interrupted build.
@Suite("Schema migrations and the services' indexes", .onItsOwnThread)
struct SchemaMigrationTests {
  static let serviceIndexSteps = Migrations.steps.filter { $0.kind == .serviceIndex }

  /// The steps that build an index; the one that only drops (upcoming_events' owner index) apart.
  static let serviceIndexBuilds = serviceIndexSteps.filter { $0.sql.contains("CREATE INDEX") }

  @Test func everyServiceIndexStepIsOneCreateThenDropsAndReadsConcurrentlyOnPostgreSQL() throws {
    #expect(Self.serviceIndexSteps.count == 25)
    #expect(Self.serviceIndexBuilds.count == 19)
    for step in Self.serviceIndexSteps {
      let statements = PostgresSchema.concurrentStatements(step)
      let drops =
        Self.serviceIndexBuilds.contains { $0.name == step.name } ? statements.dropFirst() : statements[...]
      #expect(drops.allSatisfy { $0.hasPrefix("DROP INDEX CONCURRENTLY ") }, "\(step.name)")
      guard drops.count < statements.count else { continue }
      #expect(statements.first?.hasPrefix("CREATE INDEX CONCURRENTLY IF NOT EXISTS ") == true, "\(step.name)")
      // The name ends at any whitespace: the DDL breaks lines after it.
      let name = try #require(statements.first.flatMap(PostgresSchema.createdIndexName))
      #expect(!name.contains(where: \.isWhitespace) && !name.isEmpty)
    }
    #expect(
      PostgresSchema.createdIndexName("CREATE INDEX CONCURRENTLY IF NOT EXISTS a_b\n  ON t(x)") == "a_b")
    #expect(PostgresSchema.createdIndexName("CREATE INDEX a ON t(x)") == nil)
    #expect(
      PostgresSchema.createdIndexTable("CREATE INDEX CONCURRENTLY IF NOT EXISTS a_b\n  ON users((max(x, y)))")
        == "users")
    #expect(PostgresSchema.createdIndexTable("CREATE INDEX a ON t(x)") == nil)
  }

  @Test func aDryRunListsThePendingStepsAndChangesNothing() async throws {
    let dir = try TemporaryDirectory()
    let missing = dir.path("new.sqlite")
    let fresh = try await Executable.run("rinjobs", ["migrate", "--dry-run", "--db", missing])
    #expect(fresh.exitCode == 0, "\(fresh.stderr)")
    #expect(fresh.stdout.contains("would create the database and apply \(Migrations.steps.count) migrations"))
    #expect(!FileManager.default.fileExists(atPath: missing))

    let db = try TestDatabase()
    let upToDate = try await db.run("rinjobs", ["migrate", "--dry-run"])
    #expect(upToDate.exitCode == 0, "\(upToDate.stderr)")
    #expect(upToDate.stdout.contains("schema up to date; nothing to do"), "\(upToDate.stdout)")

    // As a database one release behind: its last index on a services' table not applied yet.
    let last = try #require(Self.serviceIndexBuilds.last)
    try db.execute("DELETE FROM grdb_migrations WHERE identifier = ?", [last.name])
    let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"
    let before = try db.strings(indexes)
    let pending = try await db.run("rinjobs", ["migrate", "--dry-run"])
    #expect(pending.exitCode == 0, "\(pending.stderr)")
    #expect(pending.stdout.contains("would apply 1 migration:"), "\(pending.stdout)")
    #expect(pending.stdout.contains("- \(last.name) (an index on a services' table)"))
    #expect(pending.stdout.contains(try #require(last.statements.first)))
    #expect(try db.strings("SELECT identifier FROM grdb_migrations").contains(last.name) == false)
    #expect(try db.strings(indexes) == before)
  }

  @Test(arguments: Backend.available.filter { $0 == .postgres })
  func aJobLeavesThemToMigrateWhichBuildsThemConcurrentlyAndResumesAnInterruptedBuild(backend: Backend) throws
  {
    let db = try TestDatabase(backend, seedUsers: 20, seed: 3)
    // As a database in use one release behind: the index steps not applied, the indexes they
    // replace still there, and one build interrupted (a failed `CREATE INDEX CONCURRENTLY`
    // leaves an invalid index under the name).
    for step in Self.serviceIndexSteps {
      try db.execute("DELETE FROM rin_migrations WHERE identifier = ?", [step.name])
      if let name = PostgresSchema.concurrentStatements(step).first.flatMap(PostgresSchema.createdIndexName) {
        try db.execute("DROP INDEX IF EXISTS \(name)")
      }
    }
    try db.execute("CREATE INDEX upcoming_events_by_user ON upcoming_events(user_id)")
    try db.execute("CREATE INDEX circle_members_by_circle ON circle_members(circle_id, contact_id)")
    try db.execute("CREATE INDEX contacts_by_rin_user ON contacts(rin_user_id) WHERE rin_user_id IS NOT NULL")
    try db.execute("CREATE INDEX circle_removals_by_circle ON circle_removals(circle_id, contact_id)")
    #expect(throws: (any Error).self) {
      try db.execute("CREATE UNIQUE INDEX CONCURRENTLY contacts_for_score_by_user ON contacts(user_id)")
    }
    #expect(try Self.indexes(db)["contacts_for_score_by_user"] == false)

    let job = try Storage.open(url: db.path)
    #expect(job.pendingServiceIndexes == Self.serviceIndexSteps.map(\.name))
    let plan = try job.pendingMigrations()
    #expect(plan.map(\.name) == Self.serviceIndexSteps.map(\.name))
    #expect(plan.allSatisfy { $0.statements.allSatisfy { $0.contains(" CONCURRENTLY ") } })

    let migrated = try Storage.open(url: db.path, options: .init(buildsServiceIndexes: true))
    #expect(migrated.pendingServiceIndexes.isEmpty)
    #expect(try migrated.pendingMigrations().isEmpty)
    let after = try Self.indexes(db)
    for name in [
      "contacts_for_score_by_user", "circle_members_by_circle_with_added_at",
      "contacts_by_rin_user_with_owner", "circle_removals_by_circle_with_removed_at",
      "contacts_birthday_days_by_user",
    ] {
      #expect(after[name] == true, "\(name) should be built and valid")
    }
    #expect(after["circle_members_by_circle"] == nil && after["contacts_by_rin_user"] == nil)
    #expect(after["circle_removals_by_circle"] == nil)
    #expect(after["upcoming_events_by_user"] == nil)
    for name in [
      "contacts_by_owner_and_change", "contacts_with_rin_user_by_owner",
      "circle_members_by_circle_and_added_at",
      "circle_members_by_contact", "contacts_birthdays_by_user",
    ] {
      #expect(after[name] == nil, "\(name): built by its step, then dropped by a later one")
    }
    #expect(
      try Self.definition(db, "contacts_for_score_by_user").contains(
        "(user_id, id, created_at, updated_at, deleted_at, rin_user_id)"))
  }

  /// Index name → valid, on PostgreSQL.
  static func indexes(_ db: TestDatabase) throws -> [String: Bool] {
    var found: [String: Bool] = [:]
    try db.storage.read { tx in
      try tx.sql.forEachRow(
        "SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE pg_table_is_visible(c.oid)"
      ) { row in
        if let name = row.text(0) { found[name] = row.int64(1) == 1 }
      }
    }
    return found
  }

  static func definition(_ db: TestDatabase, _ index: String) throws -> String {
    try db.storage.read { tx in
      var text = ""
      try tx.sql.forEachRow("SELECT pg_get_indexdef(to_regclass(\(.text(index))))") {
        text = $0.text(0) ?? ""
      }
      return text
    }
  }
}
