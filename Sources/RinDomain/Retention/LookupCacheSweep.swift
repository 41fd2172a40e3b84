/// Which part of the lookup cache history-retention reads for expired answers. An expired
/// answer is never used (a key whose answer expired is asked again and its row rewritten), so
/// the rows left expired are those of keys no book holds any more, and they would grow with
/// the nights. The cache's keys are digests, spread evenly over their first word, and the sweep
/// goes round that word once every `cycle` of the job's clock: a run reads the keys between the
/// position of the instant the last sweep reached and its own, so an hourly run reads a 768th
/// of the cache and a nightly one a 32nd, and every row is read once a cycle however often the
/// job runs. No index on the expiry is needed (it would cost about as much as the key).
public enum LookupCacheSweep {
  /// 32 days: a row expired is deleted within a cycle, the no-match TTL's length.
  public static let cycleSeconds: Int64 = 32 * 86_400

  /// Where the sweep stands at `instant`: its place in the cycle, as a value of `key_high`.
  public static func position(at instant: UTCInstant) -> Int64 {
    let inCycle = UInt64(((instant.seconds % cycleSeconds) + cycleSeconds) % cycleSeconds)
    return Int64(bitPattern: UInt64(bitPattern: Int64.min) &+ inCycle &* (UInt64.max / UInt64(cycleSeconds)))
  }

  /// The ranges of `key_high` a run at `now` reads when the last sweep reached `sweptUntil`:
  /// none the first time (it only marks where the sweep starts) or when the clock went back,
  /// all of them once a whole cycle has passed, else from the last position to this one,
  /// wrapping past the end of the range.
  public static func ranges(sweptUntil: UTCInstant?, now: UTCInstant) -> [ClosedRange<Int64>] {
    guard let sweptUntil, now > sweptUntil else { return [] }
    if now.seconds - sweptUntil.seconds >= cycleSeconds { return [Int64.min...Int64.max] }
    let (from, to) = (position(at: sweptUntil), position(at: now))
    if from == to { return [] }
    if from < to { return [from...(to - 1)] }
    return to == .min ? [from...Int64.max] : [from...Int64.max, Int64.min...(to - 1)]
  }
}
