/// Instants move by spans: a lease lives `leaseTTL` from now, a deadline falls `timeout` after a
/// start. Whole seconds, as `UTCInstant` holds (a span's fraction of a second is dropped).
extension UTCInstant {
  public static func + (instant: UTCInstant, span: Duration) -> UTCInstant {
    UTCInstant(seconds: instant.seconds + span.components.seconds)
  }

  public static func - (instant: UTCInstant, span: Duration) -> UTCInstant {
    UTCInstant(seconds: instant.seconds - span.components.seconds)
  }

  /// The span from `earlier` to `later` (negative when `later` is earlier).
  public static func - (later: UTCInstant, earlier: UTCInstant) -> Duration {
    .seconds(later.seconds - earlier.seconds)
  }
}
