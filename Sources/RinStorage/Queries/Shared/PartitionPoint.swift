/// The first index of `range` at which `isBefore` turns false, for a predicate that is true on a
/// prefix of `range` and false after it (a key's place in a sorted run): a binary search, in
/// `log2(range.count)` calls. `range.upperBound` when it is true throughout.
@inlinable func partitionPoint(_ range: Range<Int>, isBefore: (Int) -> Bool) -> Int {
  var low = range.lowerBound
  var high = range.upperBound
  while low < high {
    let middle = low + (high - low) / 2
    if isBefore(middle) { low = middle + 1 } else { high = middle }
  }
  return low
}
