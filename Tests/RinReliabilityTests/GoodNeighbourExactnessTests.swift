import Foundation
import GRDB
import RinStorage
import RinTestSupport
import Testing

/// Issue 31, "the jobs' results equal a run on the final data": the services loop of
/// `GoodNeighbourTests` writes `user_state.score_viewed_at`, contacts and memberships while the
/// nightly pipeline and badge-recount run; afterwards the jobs' results are held to what
/// docs/OPERATIONS.md "Running beside the services" promises (what is exact, and when):
/// - the next night, as cron runs it, leaves every table equal to `--full` runs of the same jobs
///   on a copy of the same final data: no write of the services is lost to the incremental
///   jobs, wherever in a run it landed;
/// - badge-recount counts from the rows as they are when its batch reads them, so its rows for
///   the users the services did not write after the run began equal a recount from scratch on
///   the final data.
@Suite(
  "Good neighbour: after the services' writes, the jobs' results equal a run on the final data",
  .onItsOwnThread, .enabled(if: Backend.available.contains(.postgres)))
struct GoodNeighbourExactnessTests {
  /// `ReliabilityWorkspace.now`, in seconds: the services stamp their writes from the jobs' clock
  /// on, a second apart, as writes made while the jobs run would be.
  static let now: Int64 = 1_795_348_800
  static let nextNight = "2026-11-23T12:00:00Z"
  static let nightly = ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"]

  /// `count` new databases of the shared cluster, each a copy of `source` as it is now (pg_dump
  /// and psql, the server's own tools). The change triggers of the source's `PostgresSnapshot`
  /// are dropped from each, so that a snapshot of the copy can be taken the same way.
  static func copies(of source: String, _ count: Int, folder: TemporaryDirectory) throws -> [String] {
    guard let bin = PostgresCluster.binaries else { throw ReliabilityFailure("no PostgreSQL binaries") }
    let dump = folder.path("final.sql")
    try PostgresCluster.run(
      "\(bin)/pg_dump", ["--no-owner", "--no-privileges", "--file", dump, "--dbname", source], as: nil)
    return try (0..<count).map { _ in
      let target = try PostgresCluster.shared.get().createDatabase()
      try PostgresCluster.run(
        "\(bin)/psql", ["-q", "-X", "-v", "ON_ERROR_STOP=1", "--file", dump, "--dbname", target], as: nil)
      let connection = try TestPostgresConnection(url: target)
      try connection.execute("DROP FUNCTION rin_note_change() CASCADE")
      for table in PostgresSnapshot.tables {
        try connection.execute("DROP SEQUENCE rin_changes_\(table)")
      }
      return target
    }
  }

  /// A pipelines.yaml for the database at `url`, with the workspace's settings.
  static func config(for url: String, in folder: TemporaryDirectory, name: String) throws -> String {
    try TestConfigFile.write(
      "storage:\n  url: \(url)\n  busy_timeout: 5s\n  lock_timeout: 1s\n" + TestConfigFile.nightlyPipeline,
      in: folder, name: "\(name).yaml")
  }

  /// Each user's four badge counts (the row's clock aside: a row is rewritten only when a count
  /// changes, so its `computed_at` tells which run last changed it, not what it counts).
  static func badges(_ url: String) throws -> [Int64: [Int64]] {
    let rows = try TestPostgresConnection(url: url).execute(
      "SELECT user_id, home, circles, score, profile FROM badge_counts")
    var counts: [Int64: [Int64]] = [:]
    for row in rows {
      guard let user = Int64.fromDatabaseValue(row[0]) else { continue }
      counts[user] = row.dropFirst().map { Int64.fromDatabaseValue($0) ?? -1 }
    }
    return counts
  }

  @Test func theNextNightEqualsAFullRunOnTheFinalDataAndBadgesEqualARecount() async {
    await Checks.offPool { checks in
      let workspace = try ReliabilityWorkspace(
        postgresUsers: 60, seed: GoodNeighbourTests.seed, jobsYAML: TestConfigFile.nightlyPipeline,
        lockTimeout: "1s")
      try GoodNeighbourTests.everyUserGetsAScoreChange(workspace)
      let userIDs = try workspace.read { try Int64.fetchAll($0, sql: "SELECT id FROM users ORDER BY id") }
      let services = ServicesLoop(
        url: workspace.dbPath, userIDs: userIDs, stampBase: Self.now, opensConflicts: true)
      services.start()
      let nightly = try Executable.runBlocking(
        "rinjobs", ["pipeline", "run", "nightly"] + workspace.arguments())
      // Every user gets a write after the nightly counted their badges; from then on the
      // services write for every other user only: the rest are left as they were before
      // badge-recount began, with counts the nightly's run no longer holds.
      services.waitFor(transactions: userIDs.count)
      let quiet = Set(stride(from: 0, to: userIDs.count, by: 2).map { userIDs[$0] })
      services.narrow(to: userIDs.filter { !quiet.contains($0) })
      Thread.sleep(forTimeInterval: 0.2)
      let badgeStart = Date()
      let badges = try Executable.runBlocking("rinjobs", ["run", "badge-recount"] + workspace.arguments())
      Thread.sleep(forTimeInterval: 0.3)  // the services go on a little past the run
      let written = services.stop()
      try checks.require(nightly.exitCode == 0, "\(nightly.stderr.suffix(1_500))")
      try checks.require(badges.exitCode == 0, "\(badges.stderr.suffix(1_500))")
      checks.expect(written.failures.isEmpty, "service transactions failed: \(written.failures.prefix(3))")
      try checks.require(written.transactions >= 20, "only \(written.transactions) service transactions ran")

      // The final data, twice: one copy for the recount, one for the full runs.
      let folder = try TemporaryDirectory()
      let copies = try Self.copies(of: workspace.dbPath, 2, folder: folder)
      let (recounted, full) = (copies[0], copies[1])

      // badge-recount: a recount from scratch of the final data, at the same clock.
      try TestPostgresConnection(url: recounted).execute("DELETE FROM badge_counts")
      let recount = try Executable.runBlocking(
        "rinjobs",
        ["run", "badge-recount", "--config", try Self.config(for: recounted, in: folder, name: "recount")]
          + ["--now", ReliabilityWorkspace.now, "--json"])
      try checks.require(recount.exitCode == 0, "\(recount.stderr.suffix(1_500))")
      let (ran, want) = (try Self.badges(workspace.dbPath), try Self.badges(recounted))
      let untouched = quiet.filter { user in written.lastCommitted[user].map { $0 < badgeStart } ?? true }
      let writtenBefore = untouched.filter { written.lastCommitted[$0] != nil }
      // Users the services wrote for before the run, and not after it began: what the run
      // counted for them must be what their final rows count.
      try checks.require(
        writtenBefore.count >= quiet.count / 2, "only \(writtenBefore.count) quiet users had a service write")
      let stale = untouched.sorted().filter { ran[$0] != want[$0] }
      checks.expect(
        stale.isEmpty,
        "badge rows differ from a recount of the final data for \(stale.count) users the services left alone during the run, e.g. \(stale.prefix(3).map { "\($0): \(ran[$0] ?? []) vs \(want[$0] ?? [])" })"
      )

      // The next night on the database the services wrote, as cron runs it (incremental), and
      // every job of the nightly with `--full` on the copy of the same final data.
      let next = try Executable.runBlocking(
        "rinjobs",
        ["pipeline", "run", "nightly", "--config", workspace.configPath, "--now", Self.nextNight, "--json"])
      try checks.require(next.exitCode == 0, "\(next.stderr.suffix(1_500))")
      let fullConfig = try Self.config(for: full, in: folder, name: "full")
      for job in Self.nightly {
        let run = try Executable.runBlocking(
          "rinjobs",
          ["run", job, "--config", fullConfig, "--now", Self.nextNight, "--json"]
            + (job == "badge-recount" ? [] : ["--full"]))
        try checks.require(run.exitCode == 0, "\(job) --full: \(run.stderr.suffix(1_500))")
      }
      let got = try workspace.snapshot()
      let expected = try PostgresSnapshot(url: full, file: folder.path("full.sqlite")).refreshed().read {
        try TableSnapshot(db: $0, tables: DataContract.allTables)
      }
      let differences = got.differences(from: expected)
      checks.expect(
        differences.isEmpty, "the next night differs from a full run on the final data: \(differences)")
      ReliabilityLevel.report(
        "exactness: \(written.transactions) service transactions; badges equal a recount for \(untouched.count) users left alone; next night vs full: \(differences.count) tables differ"
      )
    }
  }
}
