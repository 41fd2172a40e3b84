import RinDomain

/// The owners one batch statement reads, as the condition it puts on an owner column.
///
/// A batch's owners are usually a window of the selected users in id order: every live user, or
/// every user of one shard (`id mod N = K`). Such ids run densely, and a statement reads them as
/// one index range (with the shard's stride as a filter): on PostgreSQL an `IN` list of 500 to
/// 2,000 bound ids is one index descent per id, or a scan of the whole table when the planner
/// gives up on the list (`owner_examinations`, `merge_suggestions`: 4 to 7 times the server CPU
/// of the range at M, BENCHMARKS.md "Session 23"). Any other set (an explicit list, a night's
/// changed owners) keeps the `IN` list.
///
/// A range also holds ids that are not in the batch (deleted users, users outside the selection,
/// gaps, the other shards' users): a reader keeps a row only if `includes` its owner. Never use
/// the condition to write. A shard's range walks the index entries of every shard's users in
/// it: up to 8 shards that still costs less than the list (one descent per id); beyond, a
/// shard reads its list.
@usableFromInline package struct OwnerSet: Sendable {
  /// The ids, ascending and without repeats (their integers: the range is arithmetic on them).
  @usableFromInline let ids: [Int64]
  @usableFromInline let range: (low: Int64, high: Int64, stride: Int64)?

  /// A range reads at most 1/`slack` more ids than the batch has, beyond which the list wins.
  static let slack = 4
  /// Below this many ids the list costs little either way.
  static let smallest = 16
  /// The widest stride a range takes (a run of at most this many shards).
  static let widestStride: Int64 = 8

  package init(_ owners: [UserID]) {
    let ids = Array(Set(owners.map(\.rawValue))).sorted()
    self.ids = ids
    guard ids.count >= Self.smallest, let low = ids.first, let high = ids.last else {
      range = nil
      return
    }
    var stride: Int64 = 0
    for id in ids { stride = Self.gcd(stride, id - low) }
    stride = max(stride, 1)
    let span = (high - low) / stride + 1
    if stride <= Self.widestStride, span <= Int64(ids.count + ids.count / Self.slack) {
      range = (low, high, stride)
    } else {
      range = nil
    }
  }

  /// Whether the statement reads an index range rather than a list.
  package var isRange: Bool { range != nil }

  /// `column BETWEEN low AND high` (and `column % stride = low % stride` for a stride), or
  /// `column IN (…)`, with its values bound.
  package func condition(on column: String) -> SQLFragment {
    guard let range else {
      return "\(literal: column) IN (\(SQLDialect.list(ids.isEmpty ? [.null] : ids.map(SQLValue.integer))))"
    }
    let between: SQLFragment = "\(literal: column) BETWEEN \(range.low) AND \(range.high)"
    return range.stride == 1
      ? between : "\(between) AND \(literal: column) % \(range.stride) = \(range.low % range.stride)"
  }

  /// Whether a row of `owner` belongs to the batch (always, for a list: the statement read
  /// only those). Inlinable: jobs ask it once per row they read.
  @inlinable package func includes(_ owner: UserID?) -> Bool {
    guard let owner = owner?.rawValue else { return false }
    guard range != nil else { return true }
    // `ids` is sorted: a binary search, rather than a set built per statement.
    let index = partitionPoint(ids.indices) { ids[$0] < owner }
    return index < ids.count && ids[index] == owner
  }

  private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }
}
