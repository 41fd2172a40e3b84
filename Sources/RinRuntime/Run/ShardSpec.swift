import RinDomain

/// Which shard of the users a run takes (`--shard K/N` or `--shard auto/N`).
/// Below the option, a shard is a `RunShard` all the way to storage: `resolve` gives it.
public enum ShardSpec: Sendable, Equatable, CustomStringConvertible {
  /// `K/N`: never `all` when parsed; a pipeline hands its resolved shard to its jobs as one.
  case fixed(RunShard)
  /// K comes from `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job).
  case auto(count: Int)

  /// Reads `K/N` or `auto/N`; the failure says what is wrong with the text, for whoever typed it.
  public init(parsing text: String) throws(RunFailure) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let count = Int(parts[1]), count >= 1 else {
      throw .usage("expected K/N or auto/N with N ≥ 1, e.g. 0/4")
    }
    if parts[0] == "auto" {
      self = .auto(count: count)
      return
    }
    guard let index = Int(parts[0]), (0..<count).contains(index) else {
      throw .usage("K must be a whole number from 0 to \(count - 1)")
    }
    self = .fixed(.part(index: index, count: count))
  }

  /// The concrete shard, reading the Kubernetes completion index where asked.
  public func resolve(environment: [String: String]) -> Result<RunShard, RunFailure> {
    switch self {
    case .fixed(let shard):
      return .success(shard)
    case .auto(let count):
      guard let raw = environment["JOB_COMPLETION_INDEX"], let index = Int(raw),
        (0..<count).contains(index)
      else {
        return .failure(
          .usage(
            "--shard auto/\(count) needs JOB_COMPLETION_INDEX set to 0…\(count - 1) (Kubernetes Indexed Job)"
          ))
      }
      return .success(.part(index: index, count: count))
    }
  }

  public var description: String {
    switch self {
    case .fixed(let shard): shard.description
    case .auto(let count): "auto/\(count)"
    }
  }
}
