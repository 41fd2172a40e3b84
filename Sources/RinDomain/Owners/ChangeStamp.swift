/// The instants that decide whether a row changed since a job last looked at its owner: the
/// services stamp a row with their clock when they write it (`updated_at`, `deleted_at`,
/// `added_at`, …), and a job keeps, per owner, the instant after which such a stamp means "look
/// again" (daily-score's tallies, upcoming-birthdays' owner states).
public enum ChangeStamp {
  /// How long a service's write may take to commit after the time it stamps: a change stamped
  /// up to this long before a run's clock is still looked for by the next run.
  public static let margin = Duration.seconds(marginSeconds)
  static let marginSeconds: Int64 = 3600

  /// The instant after which a stamped change makes what a run with clock `now` computed stale:
  /// `now` (or `end`, when a window ends earlier, as a backfill's does), less `margin`.
  public static func after(now: UTCInstant, end: UTCInstant) -> UTCInstant {
    min(now, end).saturating(plus: -marginSeconds)
  }
}
