/// One batch's contact ids as a few id ranges, so that a table keyed by `contact_id` (phones,
/// emails, enrichments, circle members) is read in a few ordered index scans instead of one index
/// probe per contact: at 5.8 M contacts the probes were most of daily-score's time. Rows of
/// contacts outside the batch that fall inside a range are dropped by the reader.
package struct ContactIDRanges: Equatable {
  /// Ranges per query: the query text has this many `BETWEEN` branches, unused ones are empty.
  static let limit = 8
  var ranges: [ClosedRange<Int64>]

  /// Nil when `limit` ranges would cover more than `maxSpanFactor` ids per contact (plus some
  /// slack): scattered contacts (a shard, a user list, contacts added long after their user's
  /// import) are then cheaper to probe one by one than to read around.
  package init?(sortedIDs ids: [Int64], maxSpanFactor: Int64 = 4) {
    guard let first = ids.first, let last = ids.last else {
      ranges = []
      return
    }
    // Splitting at the `limit − 1` widest gaps gives the ranges that cover the fewest ids.
    var gaps: [(width: Int64, index: Int)] = []
    for i in ids.indices.dropFirst() where ids[i] - ids[i - 1] > 1 {
      gaps.append((ids[i] - ids[i - 1], i))
    }
    let splits = gaps.sorted { $0.width > $1.width }.prefix(Self.limit - 1).map(\.index).sorted()
    var ranges: [ClosedRange<Int64>] = []
    var start = first
    for split in splits {
      ranges.append(start...ids[split - 1])
      start = ids[split]
    }
    ranges.append(start...last)
    let span = ranges.reduce(Int64(0)) { $0 + $1.upperBound - $1.lowerBound + 1 }
    guard span <= maxSpanFactor * Int64(ids.count) + 4096 else { return nil }
    self.ranges = ranges
  }

  /// `limit` (low, high) pairs, so that a statement has as many branches whatever the batch
  /// (one text, prepared once); the unused ones are (1, 0), which no id is between.
  var padded: [(low: Int64, high: Int64)] {
    ranges.map { ($0.lowerBound, $0.upperBound) }
      + Array(repeating: (Int64(1), Int64(0)), count: Self.limit - ranges.count)
  }
}
