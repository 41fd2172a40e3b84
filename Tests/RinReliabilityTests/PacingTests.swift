import Foundation
import GRDB
import RinTestSupport
import Testing

/// Issue 40: a job that yields by itself. Each test runs the real executables against a real
/// cluster; the server's load is made of sessions that run `pg_sleep` (each an active session
/// of the services in `pg_stat_activity`). The load tests have a cluster of their own, so that
/// the other tests' sessions do not count (docs/OPERATIONS.md "Running beside the services").
@Suite(
  "Pacing: a job yields to a busy server by itself on PostgreSQL", .onItsOwnThread,
  .enabled(if: Backend.available.contains(.postgres)))
struct PacingTests {
  static let users = 20
  static let seed: UInt64 = 5

  static func paused(_ result: Executable.Result) -> [String: Any] {
    GoodNeighbourTests.summary(result)["paused"] as? [String: Any] ?? [:]
  }

  @Test func aBusyServerPausesTheJobWithItsReasonAndItGoesOnOnceTheLoadDrops() async {
    await Checks.offPool { checks in
      let cluster = try PostgresCluster.privateCluster()
      let workspace = try ReliabilityWorkspace(
        postgresUsers: Self.users, seed: Self.seed, storageYAML: "  max_load: 2\n", lockTimeout: "1s",
        cluster: cluster)
      let busy = try BusySessions(url: workspace.dbPath, count: 3)
      defer { busy.end() }
      // Another worker of ours (a shard) at work: not the services' load, so not counted.
      let ours = try BusySessions(url: workspace.dbPath, count: 2, name: "rinjobs-other-worker")
      defer { ours.end() }
      try checks.require(busy.waitUntilActive() && ours.waitUntilActive(), "the busy sessions never ran")

      let metrics = workspace.directory.path("badge-recount.prom")
      let child = try workspace.spawn("badge-recount", label: "busy", ["--metrics-file", metrics])
      try checks.require(
        child.waitForLines(containing: "paused: the services run 3 statements", count: 1),
        "it never paused: \(child.stderrLines.suffix(10))")
      Thread.sleep(forTimeInterval: 3)
      let committedWhilePaused = child.stderrLines.filter { $0.contains(ReliabilityJobs.batchMarker) }.count
      busy.end()
      let result = child.finish()
      checks.expect(committedWhilePaused == 0, "\(committedWhilePaused) batches committed while paused")
      checks.expect(result.exitCode == 0, "exit \(result.exitCode): \(result.stderr.suffix(1_500))")
      checks.expect(result.stderr.contains("more than storage.max_load (2)"), "it says why")
      checks.expect(result.stderr.contains("(server load)"), "\(result.stderr.suffix(1_500))")
      let seconds = Self.paused(result)["seconds"] as? [String: Double]
      checks.expect((seconds?["server load"] ?? 0) >= 3, "paused: \(String(describing: seconds))")
      checks.expect(GoodNeighbourTests.summary(result)["counts"] != nil, "the run did its work")

      let ledger = try workspace.read {
        try String.fetchOne(
          $0, sql: "SELECT counts FROM job_runs WHERE job = 'badge-recount' ORDER BY id DESC")
      }
      checks.expect(ledger?.contains("server load") == true, "the ledger keeps the pause: \(ledger ?? "")")
      let prom = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
      checks.expect(
        prom.contains(#"rinjobs_last_run_paused_seconds{job="badge-recount",reason="server load"}"#),
        "metrics: \(prom.suffix(1_500))")
      let report = try Executable.runBlocking(
        "rinjobs", ["report", "--json", "--config", workspace.configPath, "--now", ReliabilityWorkspace.now])
      checks.expect(
        report.stdout.contains("server load"), "the report shows the pause: \(report.stderr.suffix(500))")
    }
  }

  @Test func aLoadPastCriticalLoadEndsTheJobWithExit75AndTheNextRunResumesIt() async {
    await Checks.offPool { checks in
      let cluster = try PostgresCluster.privateCluster()
      // A lock timeout longer than the test holds its lock: the job waits for the service there,
      // mid-run, which is when the load rises.
      let workspace = try ReliabilityWorkspace(
        postgresUsers: Self.users, seed: Self.seed, storageYAML: "  max_load: 2\n  critical_load: 4\n",
        lockTimeout: "30s", cluster: cluster)
      try GoodNeighbourTests.everyUserGetsAScoreChange(workspace)
      let userIDs = try workspace.read { try Int64.fetchAll($0, sql: "SELECT id FROM users ORDER BY id") }
      let locked = userIDs[userIDs.count / 2]
      let service = try GoodNeighbourTests.serviceConnection(workspace.dbPath)
      try service.execute(
        "INSERT INTO user_state (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING", [locked.databaseValue]
      )
      try service.execute("BEGIN")
      try service.execute(
        "UPDATE user_state SET score_viewed_at = 777 WHERE user_id = ?", [locked.databaseValue])

      let child = try workspace.spawn("daily-score", label: "critical")
      try checks.require(child.waitForLines(containing: ReliabilityJobs.batchMarker, count: 1))
      try checks.require(
        BusySessions.waitFor(url: workspace.dbPath, sql: Self.jobWaitsOnALock), "the job never met the lock")
      let busy = try BusySessions(url: workspace.dbPath, count: 5)
      defer { busy.end() }
      try checks.require(busy.waitUntilActive(), "the busy sessions never ran")
      // The job's batch goes on once the service commits; before the next batch it sees 5
      // running statements, more than critical_load.
      try service.execute("COMMIT")
      let stopped = child.finish()
      checks.expect(stopped.exitCode == 75, "exit \(stopped.exitCode): \(stopped.stderr.suffix(1_500))")
      checks.expect(
        stopped.stderr.contains("more than storage.critical_load (4)"), "\(stopped.stderr.suffix(1_500))")
      let summary = GoodNeighbourTests.summary(stopped)
      checks.expect(summary["status"] as? String == "interrupted", "\(summary)")
      checks.expect(
        (summary["details"] as? [String: String])?["stop_reason"] == "critical load", "\(summary)")

      busy.end()
      let rerun = try workspace.run("daily-score")
      checks.expect(rerun.exitCode == 0, "\(rerun.stderr.suffix(1_000))")
      let resumed = (GoodNeighbourTests.summary(rerun)["resumed_after_user"] as? NSNumber)?.int64Value
      checks.expect(resumed != nil && resumed! >= locked, "resumed after \(String(describing: resumed))")
      let unchanged = try workspace.read {
        try Int.fetchOne($0, sql: "SELECT count(*) FROM user_state WHERE score_changed_at IS NULL") ?? -1
      }
      checks.expect(unchanged == 0, "\(unchanged) users never got their score change")
    }
  }

  static let jobWaitsOnALock = """
    SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'rinjobs%' AND wait_event_type = 'Lock'
    """

  /// Batches of tens of milliseconds (up to 100 users each), so that the clock's slack in a
  /// sleep of a few milliseconds does not make up the ratio: with batches of 2 users (1 to 3 ms
  /// each), half the sleep still passed the check.
  static let largerBatches = "jobs:\n  badge-recount: {batch_size: 100}\n"

  @Test func niceRatioOneSleepsAboutAsLongAsTheBatchesWorked() async {
    await Checks.offPool { checks in
      let paced = try ReliabilityWorkspace(
        postgresUsers: 300, seed: Self.seed, jobsYAML: Self.largerBatches, storageYAML: "  nice_ratio: 1\n",
        lockTimeout: "1s")
      let result = try paced.run("badge-recount")
      checks.expect(result.exitCode == 0, "\(result.stderr.suffix(1_000))")
      let paused = Self.paused(result)
      let slept = (paused["seconds"] as? [String: Double])?["nice ratio"] ?? 0
      let sleeps = (paused["count"] as? [String: Int])?["nice ratio"] ?? 0
      let worked = paused["batch_seconds"] as? Double ?? 0
      let duration = GoodNeighbourTests.summary(result)["duration_seconds"] as? Double ?? 0
      // 300 users in batches of 25, 50, 100, …: one sleep after each batch.
      checks.expect(sleeps >= 3, "\(sleeps) sleeps: \(paused)")
      checks.expect(
        worked > 0 && (0.7...1.5).contains(slept / worked), "slept \(slept) s, worked \(worked) s")
      checks.expect(
        slept + worked <= duration, "slept \(slept) s and worked \(worked) s in a run of \(duration) s")
      checks.expect(result.stderr.contains("storage.nice_ratio"), "it says it paces itself")
      ReliabilityLevel.report(
        "nice_ratio 1: slept \(slept) s in \(sleeps) sleeps, worked \(worked) s, run \(duration) s")

      let unpaced = try ReliabilityWorkspace(
        postgresUsers: 300, seed: Self.seed, jobsYAML: Self.largerBatches, lockTimeout: "1s")
      let plain = try unpaced.run("badge-recount")
      checks.expect(plain.exitCode == 0, "\(plain.stderr.suffix(1_000))")
      checks.expect(Self.paused(plain).isEmpty, "nice_ratio 0 sleeps never: \(Self.paused(plain))")
    }
  }

  /// A statement of ours as the server ran it (not its parse or bind, which the log has too).
  static func isExecuted(_ line: String) -> Bool {
    line.contains("rinjobs: LOG:") && line.contains(" execute ")
  }

  /// Each batch's transaction skips the flush wait (`storage.synchronous_commit` off by
  /// default), and none does with `synchronous_commit: on`: the server's log of every statement,
  /// by session name, shows which.
  @Test func aJobsBatchesCommitWithoutWaitingForTheFlushUnlessToldTo() async {
    await Checks.offPool { checks in
      let cluster = try PostgresCluster.privateCluster()
      let admin = try TestPostgresConnection(url: cluster.url(database: "postgres"))
      try admin.execute("ALTER SYSTEM SET log_min_duration_statement = 0")
      try admin.execute("ALTER SYSTEM SET log_line_prefix = '%m [%p] %a: '")
      try admin.execute("SELECT pg_reload_conf()")
      Thread.sleep(forTimeInterval: 0.5)
      for (storageYAML, skipsTheWait) in [("", true), ("  synchronous_commit: on\n", false)] {
        let workspace = try ReliabilityWorkspace(
          postgresUsers: 10, seed: Self.seed, storageYAML: storageYAML, lockTimeout: "1s", cluster: cluster)
        let from = (FileManager.default.contents(atPath: cluster.serverLog) ?? Data()).count
        let run = try workspace.run("badge-recount")
        checks.expect(run.exitCode == 0, "\(run.stderr.suffix(1_000))")
        let log = String(
          decoding: (FileManager.default.contents(atPath: cluster.serverLog) ?? Data()).dropFirst(from),
          as: UTF8.self)
        let skips = log.components(separatedBy: "\n").filter {
          Self.isExecuted($0) && $0.contains("set_config('synchronous_commit', 'off', true)")
        }
        let batches = log.components(separatedBy: "\n").filter {
          Self.isExecuted($0) && $0.contains("INSERT INTO job_checkpoints")
        }
        // 10 users in batches of 2: five batches, each with its checkpoint.
        checks.expect(batches.count >= 5, "\(batches.count) checkpoints written: \(log.suffix(2_000))")
        checks.expect(
          skipsTheWait ? skips.count == batches.count : skips.isEmpty,
          "\(storageYAML.isEmpty ? "default" : "on"): \(skips.count) batches skipped the flush wait of \(batches.count)"
        )
      }
    }
  }
}

/// Sessions that keep the server busy: each runs `SELECT pg_sleep(…)` on a connection and a
/// thread of its own, named `rin-busy` (a service's running statement) unless named otherwise.
/// They end when cancelled (`end`), or by themselves after a minute.
final class BusySessions: @unchecked Sendable {
  private let url: String
  private let count: Int
  private let name: String
  private let finished = DispatchGroup()
  private let admin: TestPostgresConnection
  private let lock = NSLock()
  private var ended = false

  init(url: String, count: Int, name: String = "rin-busy") throws {
    self.url = url
    self.count = count
    self.name = name
    admin = try TestPostgresConnection(url: url)
    for _ in 0..<count {
      finished.enter()
      Thread.detachNewThread { [finished] in
        defer { finished.leave() }
        _ = try? TestPostgresConnection(url: url + "?application_name=\(name)").execute(
          "SELECT pg_sleep(60)")
      }
    }
  }

  /// Whether all of them run their statement within 30 s.
  func waitUntilActive() throws -> Bool {
    try Self.waitFor(
      url: url,
      sql: "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND state = 'active'",
      atLeast: Int64(count))
  }

  /// Whether `sql` (a count) reaches `atLeast` within 30 s.
  static func waitFor(url: String, sql: String, atLeast: Int64 = 1) throws -> Bool {
    let connection = try TestPostgresConnection(url: url)
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let rows = try connection.execute(sql)
      if (rows.first?.first.flatMap { Int64.fromDatabaseValue($0) } ?? 0) >= atLeast { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return false
  }

  /// Cancels their statements and waits until every session has closed; again is a no-op. A
  /// session that connects after a cancel (a test that failed early) is cancelled in turn.
  func end() {
    let first = lock.withLock {
      defer { ended = true }
      return !ended
    }
    guard first else { return }
    repeat {
      _ = try? admin.execute(
        "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'")
    } while finished.wait(timeout: .now() + 0.5) == .timedOut
  }
}
