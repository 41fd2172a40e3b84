/// A `notification_outbox` row. Pushes are never sent by a job: the delivery service reads these.
public struct OutboxMessage: Sendable, Equatable {
  public var userID: Int64
  public var kind: String
  public var deepLink: String?
  /// JSON text; ids and counts only, never personal data.
  public var payload: String?
  /// One row per key, ever: reruns and resumed runs cannot notify twice.
  public var dedupeKey: String

  public init(userID: Int64, kind: String, deepLink: String?, payload: String?, dedupeKey: String) {
    self.userID = userID
    self.kind = kind
    self.deepLink = deepLink
    self.payload = payload
    self.dedupeKey = dedupeKey
  }
}

extension StorageTransaction {
  /// Queues `message` unless its dedupe key was queued before; true when it was new.
  @discardableResult
  public func enqueue(_ message: OutboxMessage, at instant: Int64) throws -> Bool {
    let inserted = try sql.execute(
      sql.dialect.placeholders(
        """
        INSERT INTO notification_outbox (user_id, kind, deep_link, payload, dedupe_key, created_at)
        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING
        """),
      [
        .integer(message.userID), .text(message.kind), SQLValue(message.deepLink),
        SQLValue(message.payload), .text(message.dedupeKey), .integer(instant),
      ])
    if inserted > 0 {
      changes.record("notification_outbox", .insert, sample: message.dedupeKey)
      changes.recordNotification(kind: message.kind)
    }
    return inserted > 0
  }
}
