import RinDomain
import RinRuntime

extension JobContext {
  /// The oldest day whose notifications this run may queue: an older day's outbox row may have
  /// been pruned (history-retention's `keep.notification_outbox`), so queuing it again could
  /// notify twice.
  var outboxHorizon: OutboxHorizon {
    OutboxHorizon(now: now, outboxWindow: config.jobs[HistoryRetentionJob.self].keep.notificationOutbox)
  }
}
