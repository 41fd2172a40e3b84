import RinDomain

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
  public func enqueue(_ message: OutboxMessage, at instant: UTCInstant) throws -> Bool {
    let inserted = try sql.execute(
      """
      INSERT INTO notification_outbox (user_id, kind, deep_link, payload, dedupe_key, created_at)
      VALUES (\(.integer(message.userID)), \(.text(message.kind)), \(SQLValue(message.deepLink)), \(SQLValue(message.payload)), \(.text(message.dedupeKey)), \(.instant(instant))) ON CONFLICT (dedupe_key) DO NOTHING
      """)
    if inserted > 0 {
      changes.record("notification_outbox", .insert, sample: message.dedupeKey)
      changes.recordNotification(kind: message.kind)
    }
    return inserted > 0
  }

  /// Queues `messages` in a few multi-row statements, each unless its dedupe key was queued
  /// before; `RETURNING` tells which were new, so the change set counts exactly those.
  public func enqueue(_ messages: [OutboxMessage], at instant: UTCInstant) throws {
    let rows = messages.map {
      [
        SQLValue.integer($0.userID), .text($0.kind), SQLValue($0.deepLink), SQLValue($0.payload),
        .text($0.dedupeKey), .instant(instant),
      ]
    }
    var kinds: [String: String] = [:]
    for message in messages { kinds[message.dedupeKey] = message.kind }
    try Self.outboxInsert.forEachReturnedRow(rows, on: sql) { row in
      guard let key = row.text(0) else { return }
      changes.record("notification_outbox", .insert, sample: key)
      changes.recordNotification(kind: kinds[key] ?? "")
    }
  }

  private static let outboxInsert = MultiRowStatement(
    head:
      "INSERT INTO notification_outbox (user_id, kind, deep_link, payload, dedupe_key, created_at) VALUES",
    columns: 6, tail: "ON CONFLICT (dedupe_key) DO NOTHING RETURNING dedupe_key")
}
