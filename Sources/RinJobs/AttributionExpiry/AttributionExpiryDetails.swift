import RinDomain
import RinRuntime

/// attribution-expiry's details (docs/JOBS.md).
public struct AttributionExpiryDetails: JobDetails {
  /// Clicks at or before this instant are deleted.
  @AsText public var clicksDeletedThrough: UTCInstant? = nil
  @AsText public var clicksDeleted: Int? = nil
  /// Batches that deleted at least one click.
  @AsText public var deleteBatches: Int? = nil
  @AsText public var oldestClickKept: OldestClick? = nil
  /// Clicks the table's rewrite after the deletes moved (SQLite).
  @AsText public var clicksRewritten: Int? = nil
  /// Set when a reader kept the write-ahead log from being checkpointed.
  @AsText public var walCheckpoint: WALCheckpoint? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case clicksDeletedThrough = "clicks_deleted_through", clicksDeleted = "clicks_deleted"
    case deleteBatches = "delete_batches", oldestClickKept = "oldest_click_kept"
    case clicksRewritten = "clicks_rewritten", walCheckpoint = "wal_checkpoint"
  }

  /// The oldest click the run kept; written `none` when it kept none.
  public struct OldestClick: LosslessStringConvertible, Hashable, Sendable {
    public var clickedAt: UTCInstant?

    public init(_ clickedAt: UTCInstant?) { self.clickedAt = clickedAt }

    public init?(_ description: String) {
      if description == "none" {
        clickedAt = nil
      } else if let instant = UTCInstant(description) {
        clickedAt = instant
      } else {
        return nil
      }
    }

    public var description: String { clickedAt?.description ?? "none" }
  }

  /// How the write-ahead log's checkpoint after the deletes went, when not complete.
  public enum WALCheckpoint: String, LosslessStringConvertible, Hashable, Sendable {
    case incomplete

    public init?(_ description: String) { self.init(rawValue: description) }

    public var description: String { rawValue }
  }
}
