import Foundation
import RinTestSupport
import Testing

@testable import RinStorage

/// `rinjobs erasure` through the executable on both backends (issue 70): after history-retention
/// no table of ours keeps a row about a deleted account or contact past the window (exit 0);
/// before it, the check names the tables that do (exit 1); a table added later is checked
/// without a change to the command; the metrics file is valid for Prometheus.
@Suite("rinjobs erasure", .onItsOwnThread)
struct ErasureCommandLineTests {
  static let night = "2026-11-23T02:30:20Z"
  static let nextDay = "2026-11-24T05:00:00Z"

  static func check(_ db: TestDatabase, config: String, _ extra: [String] = []) async throws
    -> (exitCode: Int32, json: [String: Any], stdout: String)
  {
    let text = try await db.run("rinjobs", ["erasure", "--now", nextDay] + extra, config: config)
    let json = try await db.run("rinjobs", ["erasure", "--json", "--now", nextDay] + extra, config: config)
    #expect(json.exitCode == text.exitCode, "\(json.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
    return (text.exitCode, object, text.stdout)
  }

  static func lingering(_ json: [String: Any]) -> [String: Int64] {
    var tables: [String: Int64] = [:]
    for entry in json["tables"] as? [[String: Any]] ?? [] {
      if let name = entry["table"] as? String, let rows = (entry["rows"] as? NSNumber)?.int64Value, rows > 0 {
        tables[name] = rows
      }
    }
    return tables
  }

  /// `rinjobs report --json`'s erasure section at the check's clock.
  static func reportErasure(_ db: TestDatabase, config: String) async throws -> [String: Any] {
    let report = try await db.run("rinjobs", ["report", "--json", "--now", nextDay], config: config)
    #expect(report.exitCode == 0, "\(report.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
    return try #require(json?["erasure"] as? [String: Any], "\(report.stdout.prefix(500))")
  }

  @Test(arguments: Backend.available) func theCheckNamesWhatOutlivedADeletionUntilRetentionErasesIt(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 24, seed: 5)
    let config = try TestConfigFile.write(TestConfigFile.nightlyPipeline, in: db.directory)
    for job in ["history-retention", "daily-score", "badge-recount"] {
      let run = try await db.run("rinjobs", ["run", job, "--now", Self.night], config: config)
      #expect(run.exitCode == 0, "\(job): \(run.stderr)")
    }
    let clean = try await Self.check(db, config: config)
    #expect(clean.exitCode == 0, "\(clean.stdout)")
    #expect(clean.stdout.contains("none left"))
    // A table the services keep beside theirs in the same schema: theirs to erase, never ours
    // to count or delete.
    try db.execute("CREATE TABLE service_owner_notes (user_id INTEGER NOT NULL, note INTEGER)")
    let account = try db.int("SELECT min(user_id) FROM badge_counts")
    try db.execute("INSERT INTO service_owner_notes (user_id, note) VALUES (?, 1)", [account])
    // The account is deleted just after the night (2026-11-23T02:45Z): past the 26-hour window
    // at the check's clock, a day later.
    try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [1_795_401_900, account])
    let metrics = db.directory.path("erasure.prom")
    let found = try await Self.check(db, config: config, ["--metrics-file", metrics])
    #expect(found.exitCode == 1, "\(found.stdout)")
    let tables = Self.lingering(found.json)
    #expect(tables["badge_counts"] == 1 && tables["service_owner_notes"] == nil, "\(tables)")
    // Every table of ours that names accounts or contacts is checked, found from the schema.
    let checked = Set((found.json["tables"] as? [[String: Any]] ?? []).compactMap { $0["table"] as? String })
    #expect(
      checked.isSuperset(of: [
        "score_snapshots", "contact_enrichments", "contact_states", "score_contact_facts",
        "owner_examinations",
        "notification_outbox", "upcoming_events", "contacts.rin_user_id",
      ]) && !checked.contains("contacts") && !checked.contains("reminders"), "\(checked.sorted())")
    #expect((tables["score_snapshots"] ?? 0) >= 1, "\(tables)")
    #expect(found.stdout.contains("badge_counts: 1 rows"), "\(found.stdout)")
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(text.contains(#"rinjobs_erasure_lingering_rows{table="badge_counts"} 1"#), "\(text)")
    #expect(text.contains(#"rinjobs_erasure_lingering_rows{table="owner_examinations"} 0"#), "\(text)")
    // The report's section says the same.
    let report = try await Self.reportErasure(db, config: config)
    #expect(((report["check"] as? [String: Any])?["lingering_rows"] as? NSNumber)?.int64Value ?? 0 >= 3)
    // A wider window does not hold the account's rows against the night yet.
    #expect(try await Self.check(db, config: config, ["--window", "3d"]).exitCode == 0)

    let retention = try await db.run(
      "rinjobs", ["run", "history-retention", "--now", Self.nextDay], config: config)
    #expect(retention.exitCode == 0, "\(retention.stderr)")
    let after = try await Self.check(db, config: config)
    #expect(after.exitCode == 0, "\(Self.lingering(after.json))")
    let notes = try db.storage.read {
      try $0.sql.integerValue("SELECT count(*) AS value FROM service_owner_notes")
    }
    #expect(notes == 1, "the services' table is theirs")
    let reported = try await Self.reportErasure(db, config: config)
    #expect(((reported["check"] as? [String: Any])?["lingering_rows"] as? NSNumber)?.int64Value == 0)
    let days = reported["days"] as? [[String: Any]] ?? []
    #expect(days.contains { ($0["accounts"] as? NSNumber)?.intValue == 1 }, "\(days)")
  }
}
