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

/// The uninterrupted run each crash, signal and concurrency case compares against, made once per
/// job, backend and batch settings in this test process and shared by those suites' cases: the
/// run is the same seeded database, the same executable and the same settings whichever case makes
/// it, so a second one would only repeat it.
enum ReliabilityReferences {
  struct Reference: Sendable {
    /// The final tables.
    let tables: TableSnapshot
    /// Batches the run committed.
    let batches: Int
    /// enrichment-fetch: lookup keys the provider was asked during the run, and lookups cached
    /// after it (0 and 0 for the other jobs).
    let keysAsked: Int
    let cached: Int
    /// Device hashes of the invite clicks the run deleted.
    let deletedHashes: Set<String>
  }

  private struct Key: Hashable, Sendable {
    var job: String
    var backend: Backend
    var batchSize: Int
    var deleteBatchSize: Int
  }

  /// Each reference, made by the first case that needs it while the others that need it wait.
  private static let references = MadeOnce<Key, Reference>()

  /// The reference for `job` on `backend` in batches of `batchSize` users (`deleteBatchSize`
  /// clicks), run, when no case has yet, in a workspace of `freshWorkspace` with `provider`
  /// (the settings of `provider.jobsYAML(batchSize:deleteBatchSize:)`).
  static func reference(
    _ job: String, on backend: Backend, batchSize: Int, deleteBatchSize: Int, provider: ReliabilityProvider,
    freshWorkspace: () throws -> ReliabilityWorkspace
  ) throws -> Reference {
    let key = Key(job: job, backend: backend, batchSize: batchSize, deleteBatchSize: deleteBatchSize)
    return try references.value(for: key) { try make(job, provider: provider, in: freshWorkspace()) }
  }

  private static func make(_ job: String, provider: ReliabilityProvider, in workspace: ReliabilityWorkspace)
    throws -> Reference
  {
    let clicks = {
      try Set(workspace.read { try String.fetchAll($0, sql: "SELECT device_hash FROM invite_clicks") })
    }
    let initialClicks = try clicks()
    let keysBefore = try provider.keysRequested
    let (tables, batches) = try ReliabilityJobs.uninterruptedRun(job, in: workspace)
    let keysAsked = try provider.keysRequested - keysBefore
    let cached =
      provider.baseURL == nil
      ? 0 : try workspace.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM enrichment_lookups") ?? 0 }
    return Reference(
      tables: tables, batches: batches, keysAsked: keysAsked, cached: cached,
      deletedHashes: initialClicks.subtracting(try clicks()))
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
