/// Where each of history-retention's windows ends at `now` (docs/OPERATIONS.md "Retention").
public enum HistoryWindows {
  /// The first day whose snapshots are kept: a snapshot whose `as_of` is before it is deleted,
  /// and a backfill of such a day is refused (its snapshots would go at the next retention run).
  public static func firstSnapshotDayKept(now: UTCInstant, window: Duration) -> CalendarDate {
    CalendarDate(utcInstant: now - window)
  }

  /// The latest instant deleted: a row whose time is at or before `now − window` is out of it.
  public static func cutoff(now: UTCInstant, window: Duration) -> UTCInstant { now - window }

  /// The ledger's cutoff. Its rows carry wall-clock times, while a run's `now` may be a day set
  /// with `--now`: counted from whichever is earlier, a run dated ahead of the wall clock (a
  /// simulated day, a test) does not take the last weeks' real runs for old ones.
  public static func ledgerCutoff(now: UTCInstant, wallClock: UTCInstant, window: Duration) -> UTCInstant {
    min(now, wallClock) - window
  }

  /// An outbox row still unsent this long after it was queued is reported: the delivery
  /// service sends within minutes when it works.
  public static let unsentReportedAfter: Duration = .seconds(86_400)
}
