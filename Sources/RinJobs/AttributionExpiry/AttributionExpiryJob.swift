import Foundation
import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.5: deletes raw invite clicks older than the attribution window, a bounded batch
/// per transaction so the write lock is never held long. `attributions` are never touched. Not
/// a per-user job: a stopped run simply leaves the rest to the next one.
public struct AttributionExpiryJob: Job {
  public typealias Settings = AttributionExpirySettings
  public typealias Details = AttributionExpiryDetails
  public static let name = JobName.attributionExpiry

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs[Self.self]
    let cutoff = ClickRetention.cutoff(now: context.now, window: settings.window)
    context.tally.details[AttributionExpiryDetails.self].clicksDeletedThrough = cutoff
    var deleted = 0
    var batches = 0
    while true {
      if context.isStopRequested {
        throw RunFailure(
          .interrupted, "stopped by signal after deleting \(deleted) clicks; the next run deletes the rest")
      }
      let count = try context.write {
        try AttributionExpiryQueries(tx: $0).deleteInviteClicks(
          clickedAtOrBefore: cutoff, limit: settings.deleteBatchSize)
      }
      deleted += count
      context.logger.debug("batch committed", metadata: ["clicks_deleted": "\(count)"])
      if count > 0 { batches += 1 }
      context.tally.details[AttributionExpiryDetails.self].clicksDeleted = deleted
      context.tally.details[AttributionExpiryDetails.self].deleteBatches = batches
      if count < settings.deleteBatchSize { break }
    }
    let (oldest, withoutTime) = try context.read { tx in
      let queries = AttributionExpiryQueries(tx: tx)
      return (try queries.oldestInviteClick(), try queries.countInviteClicksWithoutTime())
    }
    context.tally.details[AttributionExpiryDetails.self].oldestClickKept = .init(oldest)
    context.addSkipped(AttributionExpiryCounter.inviteClickWithoutTime, withoutTime)
    if deleted > 0 {
      // Deleted clicks stay readable in the files (dead rows, copies of moved rows) until the
      // kept ones are written into fresh storage.
      if let rewritten = try context.write({ try AttributionExpiryQueries(tx: $0).rewriteInviteClicks() }) {
        context.tally.details[AttributionExpiryDetails.self].clicksRewritten = rewritten
      }
    }
    if try !context.storage.checkpointWriteAheadLog() {
      context.logger.warning(
        "a reader kept the write-ahead log from being checkpointed; a later checkpoint completes it")
      context.tally.details[AttributionExpiryDetails.self].walCheckpoint = .incomplete
    }
  }
}
