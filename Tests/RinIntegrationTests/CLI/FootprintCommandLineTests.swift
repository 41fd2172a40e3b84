import Foundation
import GRDB
import RinTestSupport
import Testing

/// `rinjobs footprint` through the executable on both backends (issue 53): every table of the
/// schema measured once in its group, the groups adding up to the whole, `score_snapshots`'
/// partitions counted with it on PostgreSQL, a table growing with its rows, and the metrics
/// file valid for Prometheus.
@Suite("rinjobs footprint", .onItsOwnThread)
struct FootprintCommandLineTests {
  struct Relation {
    var name: String
    var kind: String
    var table: String
    var group: String
    var bytes: Int64
    var rows: Int64?
  }

  struct Measured {
    var json: [String: Any]
    var relations: [Relation]

    func relation(_ name: String) -> Relation? { relations.first { $0.name == name } }
    func groupBytes(_ group: String) -> Int64 {
      ((json["groups"] as? [String: Any])?[group] as? [String: Any])?["bytes"] as? Int64 ?? -1
    }
  }

  static func footprint(_ db: TestDatabase, config: String, _ extra: [String] = []) async throws -> Measured {
    let result = try await db.run("rinjobs", ["footprint", "--json"] + extra, config: config)
    #expect(result.exitCode == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    let relations = (json["relations"] as? [[String: Any]] ?? []).map {
      Relation(
        name: $0["name"] as? String ?? "", kind: $0["kind"] as? String ?? "",
        table: $0["table"] as? String ?? "",
        group: $0["group"] as? String ?? "", bytes: ($0["bytes"] as? NSNumber)?.int64Value ?? -1,
        rows: ($0["rows"] as? NSNumber)?.int64Value)
    }
    return Measured(json: json, relations: relations)
  }

  /// The schema's tables and indexes as the catalog lists them, and PostgreSQL's partitions
  /// (tables and indexes), which must not be listed on their own.
  static func catalog(_ db: TestDatabase) throws -> (
    tables: Set<String>, indexes: Set<String>, partitions: Set<String>
  ) {
    switch db.backend {
    case .sqlite:
      let tables = try db.strings("SELECT name FROM sqlite_master WHERE type = 'table'")
      let indexes = try db.strings("SELECT name FROM sqlite_master WHERE type = 'index'")
      // The schema's own b-tree is measured as a table of its own.
      return (Set(tables + ["sqlite_schema"]), Set(indexes), [])
    case .postgres:
      let connection = try TestPostgresConnection(url: db.path)
      func names(_ condition: String) throws -> Set<String> {
        Set(
          try connection.execute(
            "SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND \(condition)"
          ).compactMap { String.fromDatabaseValue($0[0]) })
      }
      return (
        try names("relkind IN ('r', 'p') AND NOT relispartition"),
        try names("relkind IN ('i', 'I') AND NOT relispartition"),
        try names("relkind IN ('r', 'i') AND relispartition")
      )
    }
  }

  @Test(arguments: Backend.available) func everyTableIsMeasuredOnceInItsGroupAndGrowsWithItsRows(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 24, seed: 5)
    let config = try TestConfigFile.write(TestConfigFile.nightlyPipeline, in: db.directory)
    // history-retention makes the days' partitions of score_snapshots on PostgreSQL, into which
    // daily-score writes.
    for job in ["history-retention", "daily-score"] {
      let run = try await db.run("rinjobs", ["run", job, "--now", "2026-11-23T02:30:20Z"], config: config)
      #expect(run.exitCode == 0, "\(job): \(run.stderr)")
    }
    let metrics = db.directory.path("footprint.prom")
    let measured = try await Self.footprint(db, config: config, ["--metrics-file", metrics])
    let catalog = try Self.catalog(db)

    // Every table once, as a table; every index once; no partition on its own.
    let tables = measured.relations.filter { $0.kind == "table" }.map(\.name)
    #expect(tables.count == Set(tables).count, "a table listed twice")
    #expect(Set(tables) == catalog.tables)
    let indexes = measured.relations.filter { $0.kind == "index" }.map(\.name)
    #expect(indexes.count == Set(indexes).count && Set(indexes) == catalog.indexes)
    #expect(Set(measured.relations.map(\.name)).isDisjoint(with: catalog.partitions))
    #expect(measured.relations.allSatisfy { $0.bytes >= 0 && !$0.group.isEmpty })

    // The groups add up to the relations, and kept is state + cache + our indexes.
    let total = measured.relations.reduce(0) { $0 + $1.bytes }
    let groups = ["services", "our_indexes", "outputs", "cache", "state"]
    #expect(groups.map(measured.groupBytes).reduce(0, +) == total)
    #expect((measured.json["total_bytes"] as? NSNumber)?.int64Value == total)
    #expect(
      (measured.json["kept_bytes"] as? NSNumber)?.int64Value
        == ["state", "cache", "our_indexes"].map(measured.groupBytes).reduce(0, +))
    #expect(measured.json["users"] as? Int == 24)
    #expect(measured.json["backend"] as? String == backend.rawValue)
    #expect(measured.json["rows_estimated"] as? Bool == (backend == .postgres))
    #expect((measured.json["kept_to_services"] as? Double ?? 0) > 0)

    // The groups of a few that say what the classification is.
    #expect(measured.relation("contacts_by_user")?.group == "services")
    #expect(measured.relation("contacts")?.group == "services")
    #expect(measured.relation("contacts_for_score_by_user")?.group == "our_indexes")
    #expect(measured.relation("enrichment_lookups")?.group == "cache")
    #expect(measured.relation("job_runs")?.group == "state")
    #expect(measured.relation("score_contact_facts")?.group == "state")
    // The plain index on contact_id, which the services need: theirs. SQLite's covering index
    // of ours is gone (issue 53); PostgreSQL's plain one has its name (PostgresSchema.ddl).
    let plain = measured.relation(
      backend == .sqlite ? "contact_phones_by_contact" : "contact_phones_by_contact_with_raw")
    #expect(plain?.group == "services")
    #expect(plain?.table == "contact_phones")
    if backend == .sqlite { #expect(measured.relation("contact_phones_by_contact_with_raw") == nil) }
    if backend == .sqlite {
      // Counted on SQLite (PostgreSQL's are the planner's estimates, unknown before an ANALYZE).
      let contacts = Int64(try db.int("SELECT count(*) FROM contacts"))
      #expect(measured.relation("contacts")?.rows == contacts)
      #expect(measured.relation("contacts_by_user")?.rows == contacts, "an index has its table's rows")
    }

    let snapshots = try #require(measured.relation("score_snapshots"))
    #expect(snapshots.kind == "table" && snapshots.group == "outputs")
    #expect(snapshots.bytes > 0, "daily-score wrote the day's snapshots")
    if backend == .postgres {
      #expect(catalog.partitions.count >= 2, "\(catalog.partitions)")
      #expect(
        measured.relation("score_snapshots_pkey")?.bytes ?? 0 > 0, "the partitions' keys, with the root's")
    }

    // A table grows with its rows.
    try db.execute(
      """
      INSERT INTO invite_shares (inviter_user_id, channel, shared_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
      SELECT 1 + i % 24, 'sms', 1795300000 + i FROM n
      """)
    let grown = try await Self.footprint(db, config: config)
    let before = try #require(measured.relation("invite_shares"))
    let after = try #require(grown.relation("invite_shares"))
    #expect(after.bytes > before.bytes)
    #expect(
      grown.relation("invite_shares_by_inviter")?.bytes ?? 0 > measured.relation("invite_shares_by_inviter")?
        .bytes ?? 0)
    if backend == .sqlite { #expect(after.rows == (before.rows ?? 0) + 3_000) }

    // The metrics: valid, one series per table and group, the ratio.
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(text.contains(#"rinjobs_table_bytes{table="contacts",group="services"}"#), "\(text)")
    #expect(text.contains(#"rinjobs_table_bytes{table="contacts",group="our_indexes"}"#), "\(text)")
    #expect(text.contains("rinjobs_footprint_kept_ratio "), "\(text)")
    let series = text.split(separator: "\n").filter { $0.hasPrefix("rinjobs_table_bytes{") }
    let summed = series.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    #expect(Int64(summed) == total)

    // The report's section: the same groups, the ten largest, how long it took.
    let report = try await db.run(
      "rinjobs", ["report", "--json", "--now", "2026-11-23T06:00:00Z"], config: config)
    #expect(report.exitCode == 0, "\(report.stderr)")
    let section = try #require(
      (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["footprint"]
        as? [String: Any])
    let largest = section["largest"] as? [[String: Any]] ?? []
    #expect(largest.count == 10)
    #expect(largest.first?["name"] as? String == grown.relations.first?.name)
    #expect((section["groups"] as? [[String: Any]])?.map { $0["group"] as? String ?? "" } == groups)
    #expect(section["seconds"] is Double)
  }
}
