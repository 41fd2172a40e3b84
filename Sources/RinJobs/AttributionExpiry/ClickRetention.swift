import RinDomain

/// How long raw invite clicks are kept: the attribution window (docs/CONTRACT.md §3.5).
public enum ClickRetention {
  /// The latest `clicked_at` that is deleted at `now`: a click with `clicked_at <= now − window`
  /// is out of the window, the boundary click included. A window with a fraction of a second
  /// rounds the cutoff down (as `UTCInstant - Duration` does), so no click inside it is ever
  /// deleted.
  public static func cutoff(now: UTCInstant, window: Duration) -> UTCInstant { now - window }
}
