import Foundation
import RinTestSupport
import Testing

/// `jobs.<job>.timeout` through the executable on both backends: at the limit the run finishes
/// its batch, commits its checkpoint, ends `interrupted` (reason `timeout`, exit 75), and the
/// next run resumes; run after run, the job ends where an uninterrupted run ends.
@Suite("a job's time limit", .onItsOwnThread)
struct JobTimeoutCommandLineTests {
  static let asOf = "2026-11-22"

  static func config(_ db: TestDatabase, timeout: String?) throws -> String {
    let limit = timeout.map { ", timeout: \($0)" } ?? ""
    return try TestConfigFile.write(
      "jobs:\n  daily-score: {batch_size: 5\(limit)}", in: db.directory,
      name: timeout == nil ? "plain.yaml" : "limited.yaml")
  }

  @Test(arguments: Backend.available) func aTimedOutRunResumesAndEndsAsAnUninterruptedOne(backend: Backend)
    async throws
  {
    let limited = try TestDatabase(backend, seedUsers: 30, seed: 6)
    let plain = try TestDatabase(backend, seedUsers: 30, seed: 6)
    let arguments = ["--as-of", Self.asOf, "--now", "2026-11-22T12:00:00Z"]

    // A limit shorter than any batch: each run commits one batch of 5 users, then stops.
    var exits: [Int32] = []
    let metrics = limited.directory.path("daily-score.prom")
    while exits.last != 0, exits.count < 20 {
      let run = try await Executable.run(
        "rin-daily-score",
        [
          "--config", try Self.config(limited, timeout: "1ms"), "--db", limited.path, "--metrics-file",
          metrics,
        ]
          + arguments)
      exits.append(run.exitCode)
      if run.exitCode == 75 {
        #expect(run.stderr.contains("timeout: jobs.daily-score.timeout (1ms) reached"))
      }
    }
    #expect(exits.last == 0, "\(exits)")
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    #expect(
      text.contains("rinjobs_job_skipped_total{job=\"daily-score\",reason=\"timeout\"} \(exits.count - 1)"),
      "\(text)")
    #expect(exits.dropLast().allSatisfy { $0 == 75 } && exits.count >= 4, "\(exits)")
    let interrupted = try limited.strings(
      "SELECT coalesce(error, '') FROM job_runs WHERE job = 'daily-score' AND status = 'interrupted'")
    #expect(interrupted.count == exits.count - 1)
    #expect(interrupted.allSatisfy { $0.hasPrefix("timeout: ") }, "\(interrupted)")
    #expect(
      try limited.int(
        "SELECT count(*) FROM job_runs WHERE job = 'daily-score' AND counts LIKE '%\"stop_reason\":\"timeout\"%'"
      )
        == exits.count - 1)

    let whole = try await Executable.run(
      "rin-daily-score", ["--config", try Self.config(plain, timeout: nil), "--db", plain.path] + arguments)
    #expect(whole.exitCode == 0, "\(whole.stderr)")
    let snapshots = "SELECT user_id || ' ' || score || ' ' || tier FROM score_snapshots ORDER BY user_id"
    let (got, want) = (try limited.strings(snapshots), try plain.strings(snapshots))
    #expect(!want.isEmpty && got == want)
  }

  @Test func aTimeoutIsAPositiveDuration() async throws {
    let db = try TestDatabase()
    let path = try TestConfigFile.write(
      "jobs:\n  badge-recount: {timeout: 0s}", in: db.directory, name: "bad.yaml")
    let run = try await Executable.run("rinjobs", ["validate", "--config", path])
    #expect(run.exitCode == 78)
    #expect(
      run.stderr.contains("bad.yaml:2:28: 'jobs.badge-recount.timeout' must be longer than zero, got 0s"),
      "\(run.stderr)"
    )
  }
}
