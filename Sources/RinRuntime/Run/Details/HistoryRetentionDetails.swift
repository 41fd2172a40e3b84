import RinDomain

/// history-retention's details (docs/JOBS.md).
public struct HistoryRetentionDetails: JobDetails {
  /// Snapshots with an `as_of` before this day are deleted.
  @AsText public var snapshotsDeletedBefore: CalendarDate? = nil
  @AsText public var snapshotsDeleted: Int? = nil
  /// Sent outbox rows with `sent_at` at or before this instant are deleted.
  @AsText public var outboxDeletedThrough: UTCInstant? = nil
  @AsText public var outboxDeleted: Int? = nil
  /// Outbox rows created more than a day ago and still unsent: kept, and a sign that the
  /// delivery service is not sending.
  @AsText public var outboxUnsentOverADay: Int? = nil
  /// Superseded suggestions deleted (superseded longer ago than the window).
  @AsText public var suggestionsDeleted: Int? = nil
  /// Ledger rows deleted (runs and pipeline slots), and forgotten checkpoints of days no run resumed.
  @AsText public var runsDeleted: Int? = nil
  @AsText public var checkpointsDeleted: Int? = nil
  /// Transactions that deleted at least one row, all tables together.
  @AsText public var deleteBatches: Int? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case snapshotsDeletedBefore = "snapshots_deleted_before", snapshotsDeleted = "snapshots_deleted"
    case outboxDeletedThrough = "outbox_deleted_through", outboxDeleted = "outbox_deleted"
    case outboxUnsentOverADay = "outbox_unsent_over_a_day", suggestionsDeleted = "suggestions_deleted"
    case runsDeleted = "runs_deleted", checkpointsDeleted = "checkpoints_deleted"
    case deleteBatches = "delete_batches"
  }
}
