import RinDomain
import RinStorage

extension HistoryRetentionQueries {
  /// Deletes up to `limit` outbox rows sent at or before `cutoff`, the earliest sent first;
  /// returns how many. An unsent row (`sent_at` null) is never deleted.
  func deleteSentNotifications(sentAtOrBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    let deleted = try sql.execute(
      """
      DELETE FROM notification_outbox WHERE \(sql.dialect.isIn(
        "id", subquery: "SELECT id FROM notification_outbox WHERE sent_at IS NOT NULL AND sent_at <= \(cutoff) ORDER BY sent_at LIMIT \(.integer(Int64(limit)))"))
      """)
    tx.changes.record(
      "notification_outbox", .delete, count: deleted,
      sample: "\(deleted) notifications sent at or before \(cutoff.seconds)")
    return deleted
  }

  /// Outbox rows queued before `instant` and still unsent.
  func countUnsentNotifications(queuedBefore instant: UTCInstant) throws -> Int {
    try sql.count(
      "SELECT count(*) AS count FROM notification_outbox WHERE sent_at IS NULL AND created_at < \(instant)")
  }
}
