import RinDomain
import RinRuntime

/// history-retention's details (docs/JOBS.md).
public struct HistoryRetentionDetails: JobDetails {
  /// Snapshots with an `as_of` before this day are deleted.
  @AsText public var snapshotsDeletedBefore: CalendarDate? = nil
  @AsText public var snapshotsDeleted: Int? = nil
  /// PostgreSQL: partitions of `score_snapshots` made ahead and dropped whole this run, and the
  /// rows the dropped ones held (the planner's estimate: counting them would read them).
  @AsText public var snapshotPartitionsCreated: Int? = nil
  @AsText public var snapshotPartitionsDropped: Int? = nil
  @AsText public var snapshotsInDroppedPartitions: Int? = nil
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
  /// Expired answers deleted from the part of the lookup cache this run swept (`LookupCacheSweep`).
  @AsText public var lookupsExpiredDeleted: Int? = nil
  /// Deleted accounts and contacts whose deletion stamp this run walked (docs/OPERATIONS.md
  /// "Erasure"), and the rows of ours about them deleted or cleared.
  @AsText public var accountsErased: Int? = nil
  @AsText public var contactsErased: Int? = nil
  @AsText public var erasedRows: Int? = nil
  /// Rows the period's sweep found of accounts or contacts gone (deleted outright, or with no
  /// stamp); nil when no sweep was due.
  @AsText public var erasureSweepRowsDeleted: Int? = nil
  /// Transactions that deleted at least one row, all tables together.
  @AsText public var deleteBatches: Int? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case snapshotsDeletedBefore = "snapshots_deleted_before", snapshotsDeleted = "snapshots_deleted"
    case snapshotPartitionsCreated = "snapshot_partitions_created"
    case snapshotPartitionsDropped = "snapshot_partitions_dropped"
    case snapshotsInDroppedPartitions = "snapshots_in_dropped_partitions"
    case outboxDeletedThrough = "outbox_deleted_through", outboxDeleted = "outbox_deleted"
    case outboxUnsentOverADay = "outbox_unsent_over_a_day", suggestionsDeleted = "suggestions_deleted"
    case runsDeleted = "runs_deleted", checkpointsDeleted = "checkpoints_deleted"
    case lookupsExpiredDeleted = "lookups_expired_deleted"
    case accountsErased = "accounts_erased", contactsErased = "contacts_erased", erasedRows = "erased_rows"
    case erasureSweepRowsDeleted = "erasure_sweep_rows_deleted"
    case deleteBatches = "delete_batches"
  }
}
