import RinDomain

/// A `notification_outbox` row. Pushes are never sent by a job: the delivery service reads these.
public struct OutboxMessage: Sendable, Equatable {
  public var userID: UserID
  public var kind: NotificationKind
  public var deepLink: String?
  /// JSON text; ids and counts only, never personal data.
  public var payload: String?
  /// One row per key, ever: reruns and resumed runs cannot notify twice.
  public var dedupeKey: String

  public init(userID: UserID, kind: NotificationKind, deepLink: String?, payload: String?, dedupeKey: String)
  {
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
      VALUES (\(.integer(message.userID)), \(.text(message.kind.rawValue)), \(SQLValue(message.deepLink)), \(SQLValue(message.payload)), \(.text(message.dedupeKey)), \(.instant(instant))) ON CONFLICT (dedupe_key) DO NOTHING
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
    let rows = messages.map { OutboxRow(message: $0, createdAt: instant) }
    var kinds: [String: NotificationKind] = [:]
    for message in messages { kinds[message.dedupeKey] = message.kind }
    try Self.outboxInsert.forEachReturned(QueuedKey.self, rows: rows, on: sql) { row in
      let key = row.dedupeKey
      changes.record("notification_outbox", .insert, sample: key)
      if let kind = kinds[key] { changes.recordNotification(kind: kind) }
    }
  }

  private static let outboxInsert = MultiRowStatement(
    inserting: OutboxRow.self, tail: "ON CONFLICT (dedupe_key) DO NOTHING RETURNING dedupe_key")
}

/// A notification as the outbox keeps it.
private struct OutboxRow: EncodableRow {
  enum Columns: Int, RowColumns { case userID, kind, deepLink, payload, dedupeKey, createdAt }
  static let table = "notification_outbox"
  let message: OutboxMessage
  let createdAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(message.userID)
    row[.kind] = .text(message.kind.rawValue)
    row[.deepLink] = SQLValue(message.deepLink)
    row[.payload] = SQLValue(message.payload)
    row[.dedupeKey] = .text(message.dedupeKey)
    row[.createdAt] = .instant(createdAt)
  }
}

/// A notification the insert queued (`RETURNING`): its key was new.
private struct QueuedKey: DecodableRow {
  enum Columns: Int, RowColumns { case dedupeKey }
  static let table = "notification_outbox"
  let dedupeKey: String

  init(_ row: RowDecoder<Columns>) throws { dedupeKey = try row.text(.dedupeKey) }
}
