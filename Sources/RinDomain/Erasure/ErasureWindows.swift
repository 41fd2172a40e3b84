/// When erasure looks for what the stamps cannot show, and how late a row about a deleted
/// account or contact may still be there (docs/OPERATIONS.md "Erasure").
public enum ErasureWindows {
  /// The sweep of every table of ours for rows whose account or contact is gone: the services'
  /// hard deletes leave no stamp, so this is how long such a row can stay.
  public static let sweepEvery: Duration = .seconds(7 * 86_400)

  /// How long after a deletion `rinjobs erasure` still tolerates a row about it: a nightly and
  /// its deadline (the hourly retention run erases within the hour; a paused pipeline or a
  /// failed night is what this window is there to show).
  public static let checkWindow: Duration = .seconds(26 * 3_600)

  /// Whether a sweep is due at `now`, the last one having run at `lastSweep` (nil: never).
  /// A clock set back (a backfill, a simulated day) does not sweep again.
  public static func sweepIsDue(lastSweep: UTCInstant?, now: UTCInstant) -> Bool {
    guard let lastSweep else { return true }
    return now >= lastSweep + sweepEvery
  }
}
