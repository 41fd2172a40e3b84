/// The part of the users a run took, as the ledger, the leases and the summaries name it: `all`,
/// or shard `K/N` (users with `id mod N = K`).
///
/// Invariant: `0 <= index < count`. `auto/N` is never a `RunShard`: it is resolved to `K/N`
/// before a run starts.
public enum RunShard: Hashable, Sendable, TextCodable {
  case all
  case part(index: Int, count: Int)

  /// Reads what `description` wrote; nil for anything else.
  public init?(_ text: String) {
    if text == "all" {
      self = .all
      return
    }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (0..<count).contains(index)
    else { return nil }
    self = .part(index: index, count: count)
  }

  public var description: String {
    switch self {
    case .all: "all"
    case .part(let index, let count): "\(index)/\(count)"
    }
  }

  /// N of `K/N`; nil for `all`.
  public var count: Int? {
    if case .part(_, let count) = self { count } else { nil }
  }

  /// K and N of `K/N` (users with `id mod N = K`); nil for `all`.
  public var part: (index: Int, count: Int)? {
    if case .part(let index, let count) = self { (index, count) } else { nil }
  }
}
