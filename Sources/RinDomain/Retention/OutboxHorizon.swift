/// The oldest day whose day-keyed notifications may still be queued (docs/OPERATIONS.md
/// "Retention"). A score update is keyed by its `as_of` and a reminder by the day it falls due;
/// the outbox row that makes a second one a no-op is deleted once it was sent longer ago than
/// `jobs.history-retention.keep.notification_outbox`. A re-run or backfill of a day older than
/// that could no longer see its row and would notify the user again, so such a day queues
/// nothing. Keys per run (enrichments) or per badge count (its `computed_at`) are new each run
/// and need no horizon.
public struct OutboxHorizon: Sendable, Equatable {
  /// A day's messages are queued from the start of that day in the earliest time zone (a
  /// reminder falls due on the user's local day, up to 14 hours ahead of UTC) and a score's the
  /// night after it: a message for a day at least this many days after the cutoff's was queued,
  /// and so sent, after the cutoff, and its row is still there.
  public static let marginDays = 2

  /// Days before this one queue nothing.
  public let firstDay: CalendarDate

  public init(now: UTCInstant, outboxWindow: Duration) {
    firstDay = CalendarDate(utcInstant: now - outboxWindow).adding(days: Self.marginDays)
  }

  public func admits(_ day: CalendarDate) -> Bool { day >= firstDay }

  /// Counted as skipped, under this reason, for each message a day before the horizon did not queue.
  public static let skipReason =
    "notification for a day before the outbox window (its row may have been pruned)"
}
