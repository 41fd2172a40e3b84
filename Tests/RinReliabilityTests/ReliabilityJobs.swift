import Foundation
import GRDB
import RinTestSupport

/// The jobs the crash, signal and concurrency tests run, through their real executables.
/// Generic: a job added here gets every one of those tests.
enum ReliabilityJobs {
  static let all = [
    "daily-score", "circle-patterns", "enrichment-fetch", "upcoming-birthdays", "attribution-expiry",
    "badge-recount",
  ]

  /// Seeded users per template (about 6,600 contacts): 20 batches of one user each. Commits, not
  /// rows, are what a kill or a signal lands between, so one user per batch keeps the commits of
  /// 40 users in batches of 2 with half the rows to copy, run and compare.
  static let users = 20
  static let seed: UInt64 = 5

  /// The debug log line each committed batch writes (JobContext, attribution-expiry's deletes).
  static let batchMarker = "\"msg\":\"batch committed\""

  /// A per-job seed, stable across processes.
  static func seed(for job: String) -> UInt64 {
    var hasher = StableHasher()
    hasher.add(job)
    return ReliabilityLevel.seed ^ (UInt64(hasher.hex, radix: 16) ?? 0)
  }

  /// Runs `job` uninterrupted on a fresh copy of `template`: the expected final tables, and
  /// how many batches the run committed.
  static func uninterruptedRun(
    _ job: String, on template: SeededTemplate, jobsYAML: String = ReliabilityWorkspace.smallBatches
  )
    throws -> (tables: TableSnapshot, batches: Int, workspace: ReliabilityWorkspace)
  {
    let workspace = try ReliabilityWorkspace(copying: template, jobsYAML: jobsYAML)
    let (tables, batches) = try uninterruptedRun(job, in: workspace)
    return (tables, batches, workspace)
  }

  /// Runs `job` uninterrupted in `workspace`: the final tables, and how many batches it committed.
  static func uninterruptedRun(_ job: String, in workspace: ReliabilityWorkspace) throws
    -> (tables: TableSnapshot, batches: Int)
  {
    let child = try workspace.spawn(job, label: "uninterrupted")
    let result = child.finish()
    guard result.exitCode == 0 else {
      throw ReliabilityFailure(
        "\(job) failed uninterrupted (exit \(result.exitCode)): \(result.stderr.suffix(2_000))")
    }
    let batches = child.stderrLines.filter { $0.contains(batchMarker) }.count
    return (try workspace.snapshot(), batches)
  }
}

struct ReliabilityFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Occurrences of any of `needles` in a database file and its write-ahead log, as bytes.
func occurrences(of needles: Set<String>, inDatabaseAt path: String) throws -> Int {
  var count = 0
  for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    for needle in needles where bytes.range(of: Data(needle.utf8)) != nil { count += 1 }
  }
  return count
}
