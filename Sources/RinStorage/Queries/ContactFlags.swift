/// Yes/no facts about one batch's contacts, by contact id, set while scanning child tables.
/// Lookups try the position after the previous one first: scans and the contacts cursor both
/// come in id order in practice, so a lookup is usually one comparison, not a binary search.
struct ContactFlags {
  static let channel: UInt8 = 1
  static let enriched: UInt8 = 2
  static let organized: UInt8 = 4

  /// Ascending, unique.
  let ids: [Int64]
  private var bits: [UInt8]
  private var hint = 0

  init(ids unsorted: [Int64]) {
    var ids = unsorted
    if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) {
      ids = Array(Set(ids)).sorted()
    }
    self.ids = ids
    bits = Array(repeating: 0, count: ids.count)
  }

  private mutating func position(of id: Int64) -> Int? {
    if hint < ids.count, ids[hint] == id { return hint }
    if hint + 1 < ids.count, ids[hint + 1] == id {
      hint += 1
      return hint
    }
    var low = 0
    var high = ids.count
    while low < high {
      let middle = (low + high) / 2
      if ids[middle] < id { low = middle + 1 } else { high = middle }
    }
    guard low < ids.count, ids[low] == id else { return nil }
    hint = low
    return low
  }

  /// Ignores ids outside the batch (a range scan reads its neighbours' rows too).
  mutating func set(_ flag: UInt8, for id: Int64) {
    if let i = position(of: id) { bits[i] |= flag }
  }

  /// Nil for a contact outside the batch.
  mutating func flags(of id: Int64) -> UInt8? {
    position(of: id).map { bits[$0] }
  }
}
