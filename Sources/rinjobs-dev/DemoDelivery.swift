import Foundation

/// Rin's delivery service, as the demo plays it: it sends the outbox's notifications a few minutes
/// after a job queues them and stamps `sent_at` (docs/CONTRACT.md §2, the service's only write to
/// `notification_outbox`). Without it every row would stay unsent, and history-retention would
/// rightly warn each hour that the delivery service is not sending.
struct DemoDelivery {
  let database: String
  /// How long after a row is queued the service sends it, as the bench's year has it.
  static let delay: Int64 = 300

  /// Sends what was queued before `at` (Unix seconds): each row `delay` after it was queued, or
  /// at `at` when that is sooner, as a service polling at `at` would. How many it sent.
  func send(at: Int64) throws(DemoShell.Failure) -> Int {
    let said = try DemoShell.run(
      """
      UPDATE notification_outbox
        SET sent_at = CASE WHEN created_at + \(Self.delay) < \(at) THEN created_at + \(Self.delay) ELSE \(at) END
        WHERE sent_at IS NULL AND created_at < \(at);
      SELECT changes();

      """, on: database)
    return Int(said.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }
}
