import RinDomain
import RinStorage

/// Which shard of the users a run takes (`--shard K/N` or `--shard auto/N`).
public enum ShardSpec: Sendable, Equatable, CustomStringConvertible {
  case fixed(index: Int, count: Int)
  /// K comes from `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job).
  case auto(count: Int)

  /// Parses `K/N` or `auto/N`; nil with a reason on bad input.
  public static func parse(_ text: String) -> Result<ShardSpec, RunFailure> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let count = Int(parts[1]), count >= 1 else {
      return .failure(.usage("--shard '\(text)': expected K/N or auto/N with N ≥ 1, e.g. 0/4"))
    }
    if parts[0] == "auto" { return .success(.auto(count: count)) }
    guard let index = Int(parts[0]), (0..<count).contains(index) else {
      return .failure(.usage("--shard '\(text)': K must be a whole number from 0 to \(count - 1)"))
    }
    return .success(.fixed(index: index, count: count))
  }

  /// The concrete shard, reading the Kubernetes completion index where asked.
  public func resolve(environment: [String: String]) -> Result<UserSelection.Shard, RunFailure> {
    switch self {
    case .fixed(let index, let count):
      return .success(.init(index: index, count: count))
    case .auto(let count):
      guard let raw = environment["JOB_COMPLETION_INDEX"], let index = Int(raw),
        (0..<count).contains(index)
      else {
        return .failure(
          .usage(
            "--shard auto/\(count) needs JOB_COMPLETION_INDEX set to 0…\(count - 1) (Kubernetes Indexed Job)"
          ))
      }
      return .success(.init(index: index, count: count))
    }
  }

  public var description: String {
    switch self {
    case .fixed(let index, let count): "\(index)/\(count)"
    case .auto(let count): "auto/\(count)"
    }
  }
}

/// The options every job takes (docs/CONTRACT.md §4), already parsed and checked.
public struct RunOptions: Sendable {
  public var dryRun = false
  public var asOf: CalendarDate?
  /// The job's clock in Unix seconds; nil means the real time at start.
  public var now: Int64?
  public var userIDs: [Int64] = []
  public var shard: ShardSpec?
  public var json = false
  public var metricsFile: String?
  /// Wait up to this long for a live lease instead of exiting 75 at once.
  public var waitSeconds: Double = 0
  /// Examine everything, including what a job would skip as unchanged since its last run.
  public var full = false
  /// Set when a pipeline runs the job.
  public var pipeline: String?
  public var slot: String?

  public init() {}
}
