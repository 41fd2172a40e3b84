import RinDomain
import RinStorage

/// One batch of users inside its transaction. Counts made here count only if it commits.
public final class UserBatch {
  public let tx: StorageTransaction
  /// Ascending, never empty.
  public let userIDs: [UserID]
  public var counts = JobCounts()

  init(tx: StorageTransaction, userIDs: [UserID]) {
    self.tx = tx
    self.userIDs = userIDs
  }
}
