import RinStorage

/// One batch of users inside its transaction. Counts made here count only if it commits.
public final class UserBatch {
  public let tx: StorageTransaction
  /// Ascending, never empty.
  public let userIDs: [Int64]
  public var counts = JobCounts()

  init(tx: StorageTransaction, userIDs: [Int64]) {
    self.tx = tx
    self.userIDs = userIDs
  }
}
