import Foundation
import RinTestSupport
import Testing

/// When stderr is not a terminal (cron's case, and a test's pipe), a long run logs one JSON line
/// `progress` per interval: users done of the total, the rate, the time left.
@Suite("Progress as log lines", .onItsOwnThread)
struct ProgressLogCommandLineTests {
  static func progressLines(_ stderr: String) -> [[String: String]] {
    stderr.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
        object["msg"] == "progress"
      else { return nil }
      return object
    }
  }

  @Test func aRunLogsItsProgressEveryInterval() async throws {
    let db = try TestDatabase(seedUsers: 30, seed: 4)
    let config = try TestConfigFile.write("jobs:\n  daily-score: {batch_size: 5}", in: db.directory)
    let arguments = [
      "--config", config, "--db", db.path, "--as-of", "2026-11-22", "--now", "2026-11-22T12:00:00Z",
    ]
    // An interval of 0: a line after every batch, so the test does not depend on speed.
    let run = try await Executable.run(
      "rin-daily-score", arguments, environment: ["RIN_PROGRESS_INTERVAL": "0"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let lines = Self.progressLines(run.stderr)
    let total = try db.int("SELECT count(*) FROM users WHERE deleted_at IS NULL")
    #expect(lines.count >= 2, "\(run.stderr)")
    #expect(lines.allSatisfy { $0["users_total"] == "\(total)" && $0["job"] == "daily-score" }, "\(lines)")
    #expect(lines.allSatisfy { $0["users_per_second"] != nil && $0["rows_per_second"] != nil }, "\(lines)")
    let done = lines.compactMap { $0["users_done"].flatMap(Int.init) }
    #expect(done == done.sorted() && (done.last ?? 0) <= total && (done.last ?? 0) > 0, "\(done)")
    #expect(lines.contains { $0["seconds_left"] != nil }, "\(lines)")

    // The default interval (30 s) is longer than this run: no line.
    let again = try await Executable.run("rin-daily-score", arguments + ["--user", "1"])
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(Self.progressLines(again.stderr).isEmpty, "\(again.stderr)")
  }
}
