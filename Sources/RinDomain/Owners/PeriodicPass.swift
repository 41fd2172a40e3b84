/// When an owner's periodic full pass (`full_every`) comes round.
///
/// Measured from the last examination alone, every owner examined on a first night falls due
/// again on the same night, a `full_every` later, and every period after: one night a period
/// would cost a first night's work (issue 30). Instead each owner has a phase of its
/// own within the period, fixed by its id: its pass comes round at the instants
/// `offset(owner) + k × period` (Unix seconds, whatever the examinations did), and the owner is
/// due at the first run after such an instant unless it was examined since. The offsets are
/// spread evenly over the period, so a nightly run finds about `run interval / period` of the
/// owners due, from the first night after a night that examined everyone: the first period
/// examines most owners earlier than `full_every` after that night, the price of the spread.
///
/// An owner is also due whenever the last examination is `full_every` old (as before), so no
/// owner waits longer than it did; with runs at a fixed time of day and a period of whole days
/// the gap between two periodic passes is exactly the period. An owner examined for another
/// reason (a change) keeps its phase: its next periodic pass is at its next instant, sooner
/// than `full_every`.
public enum PeriodicPass {
  /// Whether the periodic pass is due for `owner`, last examined at `examinedAt`, at `now`.
  /// A period of zero or less makes every owner due at every run.
  /// A fraction of a second in `period` is dropped.
  public static func isDue(owner: Int64, examinedAt: UTCInstant, now: UTCInstant, period: Duration) -> Bool {
    let periodSeconds = period.wholeSeconds
    guard periodSeconds > 0 else { return true }
    if examinedAt.distance(to: now) >= periodSeconds { return true }
    return examinedAt < lastInstant(owner: owner, atOrBefore: now, period: period)
  }

  /// The owner's phase in the period, in `0 ..< periodSeconds`.
  public static func offset(owner: Int64, periodSeconds: Int64) -> Int64 {
    precondition(periodSeconds > 0)
    return Int64(mixed(owner) % UInt64(periodSeconds))
  }

  /// The latest instant at or before `now` at which the owner's pass came round.
  public static func lastInstant(owner: Int64, atOrBefore now: UTCInstant, period: Duration) -> UTCInstant {
    let periodSeconds = period.wholeSeconds
    let offset = offset(owner: owner, periodSeconds: periodSeconds)
    // Floor modulo: `now` may precede the offset (tests, a clock near the epoch).
    let sinceInstant = ((now.seconds - offset) % periodSeconds + periodSeconds) % periodSeconds
    return now.advanced(by: -sinceInstant)
  }

  /// SplitMix64's finalizer: owner ids come in runs and in arithmetic progressions (a shard,
  /// a day's draw), and its every output bit depends on every input bit, so such ids land
  /// evenly over the period. (FNV-1a's low bits depend only on the input's low bits.)
  static func mixed(_ owner: Int64) -> UInt64 {
    var z = UInt64(bitPattern: owner) &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
