/// When the periodic full pass (`full_every`) comes round for a block of contact ids.
///
/// The pass exists to catch what the services changed without a stamp. It reads contacts in
/// blocks of `blockSize` consecutive ids, in id order (the order rows sit in the table and its
/// indexes), compares a digest of each contact computed by the database with the one stored
/// when its owner was last examined, and examines only the owners of the contacts that differ
/// (docs/OPERATIONS.md "The periodic pass").
///
/// Each block has a phase of its own within the period, fixed by its number: its pass comes
/// round at the instants `offset(block) + k × period` (Unix seconds), and it is read at the
/// first run after such an instant. The offsets are spread evenly over the period, so a nightly
/// run reads about `run interval / period` of the blocks, and every block once a period. (The
/// same rule once spread owners over the period; an owner's contacts are scattered over the
/// whole id range, so reading them cost one index probe per contact, about 40 times a block's.)
public enum PeriodicPass {
  /// Contact ids per block: a few hundred pages of `contacts` and of each child table's index.
  public static let blockSize: Int64 = 4_096

  /// Whether the pass is due for `key` (a block number), last passed at `passedAt`, at `now`:
  /// one of its instants fell after `passedAt`. A period of zero or less makes every key due at
  /// every run. A fraction of a second in `period` is dropped.
  public static func isDue(key: Int64, passedAt: UTCInstant, now: UTCInstant, period: Duration) -> Bool {
    let periodSeconds = period.wholeSeconds
    guard periodSeconds > 0 else { return true }
    if passedAt.distance(to: now) >= periodSeconds { return true }
    return passedAt < lastInstant(key: key, atOrBefore: now, period: period)
  }

  /// The contact-id ranges (`lowerBound ..< upperBound`) whose blocks are due at `now`, the
  /// last pass having been at `passedAt`, for ids up to `maxContactID`; adjacent blocks merge
  /// into one range. A shard (`index` of `count`) takes the blocks whose number is its index
  /// modulo the count, so that shards divide the pass, whatever owners the contacts belong to.
  public static func rangesDue(
    maxContactID: Int64, passedAt: UTCInstant, now: UTCInstant, period: Duration,
    shard: (index: Int, count: Int)? = nil
  ) -> [Range<Int64>] {
    guard maxContactID >= 0, passedAt < now || period.wholeSeconds <= 0 else { return [] }
    var ranges: [Range<Int64>] = []
    for block in 0...(maxContactID / blockSize) {
      if let shard, Int(block % Int64(shard.count)) != shard.index { continue }
      guard isDue(key: block, passedAt: passedAt, now: now, period: period) else { continue }
      let range = (block * blockSize)..<((block + 1) * blockSize)
      if let last = ranges.last, last.upperBound == range.lowerBound {
        ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
      } else {
        ranges.append(range)
      }
    }
    return ranges
  }

  /// The key's phase in the period, in `0 ..< periodSeconds`.
  public static func offset(key: Int64, periodSeconds: Int64) -> Int64 {
    precondition(periodSeconds > 0)
    return Int64(mixed(key) % UInt64(periodSeconds))
  }

  /// The latest instant at or before `now` at which the key's pass came round.
  public static func lastInstant(key: Int64, atOrBefore now: UTCInstant, period: Duration) -> UTCInstant {
    let periodSeconds = period.wholeSeconds
    let offset = offset(key: key, periodSeconds: periodSeconds)
    // Floor modulo: `now` may precede the offset (tests, a clock near the epoch).
    let sinceInstant = ((now.seconds - offset) % periodSeconds + periodSeconds) % periodSeconds
    return now.advanced(by: -sinceInstant)
  }

  /// SplitMix64's finalizer: keys come in runs and in arithmetic progressions (consecutive
  /// blocks, a shard's blocks), and its every output bit depends on every input bit, so such
  /// keys land evenly over the period. (FNV-1a's low bits depend only on the input's low bits.)
  static func mixed(_ key: Int64) -> UInt64 {
    var z = UInt64(bitPattern: key) &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
