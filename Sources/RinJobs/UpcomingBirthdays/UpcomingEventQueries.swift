import RinDomain
import RinStorage

extension UpcomingBirthdaysQueries {
  /// Streams the `birthday` of every live contact of `ids` that has one, as the UTF-8 bytes of
  /// its text (valid only during the call: no `String` is made for the 3 million a first run
  /// reads at M). The owner prefix of `contacts_birthday_days_by_user`, whose condition is this
  /// query's, hands each user's birthdays out one after another, with a visit to the row for the
  /// birthday; only the owners a run recomputes in full are read so.
  func forEachContactBirthday(
    of ids: [UserID],
    _ body: (_ userID: UserID, _ contactID: ContactID, _ birthday: UnsafeBufferPointer<UInt8>) throws -> Void
  ) throws {
    try tx.sql.forEach(
      ContactBirthday.self,
      """
      SELECT \(columns: ContactBirthday.Columns.self) FROM contacts
      WHERE user_id IN (\(SQLDialect.list(ids))) AND deleted_at IS NULL AND birthday IS NOT NULL
      """
    ) { row in _ = try row.withBirthday { try body(row.userID, row.id, $0) } }
  }

  /// Streams the live contacts of `ids` whose birthday text ends in one of `monthDays`
  /// (`MM-DD`), as `forEachContactBirthday` does: an owner whose date turned looks up only the
  /// birthdays that can fall on the day its window newly reaches (`UpcomingWindowTurn`), a seek
  /// per owner and month-day into `contacts_birthday_days_by_user`, whose expression this
  /// query spells exactly.
  func forEachContactBirthday(
    of ids: [UserID], monthDays: [String],
    _ body: (_ userID: UserID, _ contactID: ContactID, _ birthday: UnsafeBufferPointer<UInt8>) throws -> Void
  ) throws {
    guard !ids.isEmpty, !monthDays.isEmpty else { return }
    // SQLite without statistics may take another owner index and filter every contact of the
    // owner, where a seek by month and day reads only the birthdays that can fall in the
    // window. PostgreSQL chooses the seek itself.
    let index = "contacts_birthday_days_by_user"
    var hint = ""
    if let indexedBy = tx.sql.dialect.indexedBy(index),
      let found = try tx.sql.integerValue(
        "SELECT count(*) AS value FROM sqlite_master WHERE type = \(.text("index")) AND name = \(.text(index))"
      ),
      found > 0
    {
      hint = indexedBy
    }
    // A few rows per owner of a batch: read at once, without a cursor on PostgreSQL (three
    // round trips instead of one).
    try tx.sql.forEachInBatch(
      ContactBirthday.self,
      """
      SELECT \(columns: ContactBirthday.Columns.self) FROM contacts\(literal: hint)
      WHERE user_id IN (\(SQLDialect.list(ids)))
        AND substr(birthday, length(birthday) - 4) IN (\(SQLDialect.list(monthDays.map(SQLValue.text))))
        AND deleted_at IS NULL AND birthday IS NOT NULL
      """
    ) { row in _ = try row.withBirthday { try body(row.userID, row.id, $0) } }
  }

  /// Streams the reminders of `ids` not yet completed, with whether their contact is live and
  /// the user's own; with `due`, only those whose `due_on` text falls in it (a valid date
  /// compares as its text does).
  func forEachOpenReminder(
    of ids: [UserID], due: ClosedRange<CalendarDate>? = nil,
    _ body: (_ userID: UserID, Reminder) throws -> Void
  ) throws {
    guard !ids.isEmpty else { return }
    let range: SQLFragment =
      due.map { " AND r.due_on >= \($0.lowerBound) AND r.due_on <= \($0.upperBound)" } ?? ""
    // All of a batch's open reminders, about one per owner, or only those due on a few days.
    try tx.sql.forEachInBatch(
      OpenReminder.self,
      """
      SELECT r.user_id, r.id, r.contact_id, r.due_on,
        EXISTS (SELECT 1 FROM contacts c WHERE c.id = r.contact_id AND c.user_id = r.user_id
          AND c.deleted_at IS NULL) AS contact_is_live
      FROM reminders r
      WHERE r.user_id IN (\(SQLDialect.list(ids))) AND r.completed_at IS NULL\(range)
      """
    ) { try body($0.userID, $0.reminder) }
  }

  /// The `upcoming_events` rows of `ids`, per user.
  func upcomingEvents(of ids: [UserID]) throws -> [UserID: [UpcomingEvent.Stored]] {
    var rows: [UserID: [UpcomingEvent.Stored]] = [:]
    try tx.sql.forEach(
      StoredUpcomingEvent.self,
      """
      SELECT user_id, kind, ref_id, occurs_on, contact_id, days_until, dismissed_at IS NOT NULL AS is_dismissed
      FROM upcoming_events WHERE user_id IN (\(SQLDialect.list(ids)))
      """
    ) { rows[$0.userID, default: []].append($0.stored) }
    return rows
  }

  /// Inserts the occurrences, or rewrites their `contact_id` and `days_until`: never the app's
  /// `dismissed_at`, never `created_at`. A few multi-row statements per batch, not one per row.
  func putUpcomingEvents(
    _ events: [(userID: UserID, event: UpcomingEvent, isNew: Bool)], createdAt: UTCInstant
  )
    throws
  {
    try Self.upcomingEventUpsert.execute(
      rows: events.map { UpcomingEventRow(userID: $0.userID, event: $0.event, createdAt: createdAt) },
      on: tx.sql)
    // The first rows one by one, for their samples; the rest (thousands a batch) counted per kind.
    let sampled = events.prefix(ChangeSet.samplesPerTable)
    for (userID, event, isNew) in sampled {
      tx.changes.record(
        "upcoming_events", isNew ? .insert : .update,
        sample: "user \(userID): \(event.key), days_until \(event.daysUntil)")
    }
    let rest = events.dropFirst(sampled.count)
    let inserted = rest.reduce(0) { $0 + ($1.isNew ? 1 : 0) }
    tx.changes.record("upcoming_events", .insert, count: inserted, sample: "")
    tx.changes.record("upcoming_events", .update, count: rest.count - inserted, sample: "")
  }

  private static let upcomingEventUpsert = MultiRowStatement(
    inserting: UpcomingEventRow.self,
    tail: """
      ON CONFLICT (user_id, kind, ref_id, occurs_on) DO UPDATE SET contact_id = excluded.contact_id,
        days_until = excluded.days_until
      """)

  /// Turns the rows of `ids`, whose local date moved from one day to `today` (`shift` days on)
  /// with nothing else changed (`UpcomingWindowTurn`), on the server: the rows before `today`
  /// go (their occurrence passed), the others count `shift` days fewer. Two statements for all
  /// of them: no row crosses to the worker. Returns the rows deleted and shifted.
  @discardableResult
  func turnUpcomingEvents(of ids: [UserID], to today: CalendarDate, shift: Int) throws
    -> (deleted: Int, shifted: Int)
  {
    guard !ids.isEmpty else { return (0, 0) }
    let owners = SQLDialect.list(ids)
    let deleted = try tx.sql.executeWrite(
      "DELETE FROM upcoming_events WHERE user_id IN (\(owners)) AND occurs_on < \(today)")
    let shifted = try tx.sql.executeWrite(
      "UPDATE upcoming_events SET days_until = days_until - \(shift) WHERE user_id IN (\(owners))")
    if deleted > 0 {
      tx.changes.record("upcoming_events", .delete, count: deleted, sample: "\(deleted) events passed")
    }
    if shifted > 0 {
      tx.changes.record("upcoming_events", .update, count: shifted, sample: "\(shifted) events a day nearer")
    }
    return (deleted, shifted)
  }

  /// The reminders of `ids` stored for `day` and not dismissed, as (user, reminder, contact):
  /// those due today push (`UpcomingEventsSync.remindersDue`).
  func undismissedReminderEvents(of ids: [UserID], on day: CalendarDate) throws
    -> [(userID: UserID, refID: Int64, contactID: ContactID)]
  {
    guard !ids.isEmpty else { return [] }
    var events: [(userID: UserID, refID: Int64, contactID: ContactID)] = []
    try tx.sql.forEachInBatch(
      ReminderEvent.self,
      """
      SELECT \(columns: ReminderEvent.Columns.self) FROM upcoming_events
      WHERE user_id IN (\(SQLDialect.list(ids))) AND kind = \(.text(UpcomingEvent.Kind.reminder.rawValue))
        AND occurs_on = \(day) AND dismissed_at IS NULL
      """
    ) { events.append(($0.userID, $0.refID, $0.contactID)) }
    return events
  }

  /// Deletes the rows of these keys: a statement per chunk of up to 64 keys, not one per row
  /// (a first run deletes tens of thousands of rows). An `OR` of key
  /// equalities, which both backends answer with a seek per key into the primary key (SQLite
  /// reads a `VALUES` list of row values by scanning the table).
  func deleteUpcomingEvents(_ keys: [(userID: UserID, key: UpcomingEvent.Key)]) throws {
    guard !keys.isEmpty else { return }
    var deleted = 0
    var next = keys.startIndex
    for size in MultiRowStatement.chunks(keys.count) {
      let equalities = keys[next..<next + size].map { user, key -> SQLFragment in
        "(user_id = \(user) AND kind = \(.text(key.kind)) AND ref_id = \(key.refID) AND occurs_on = \(.text(key.occursOn)))"
      }
      next += size
      deleted += try tx.sql.executeWrite(
        "DELETE FROM upcoming_events WHERE \(equalities.joined(separator: " OR "))")
    }
    let sample = keys.first.map { "user \($0.userID): \($0.key)" } ?? ""
    tx.changes.record("upcoming_events", .delete, count: deleted, sample: sample)
  }
}

/// A live contact's birthday, as the UTF-8 bytes of its text (no `String` per contact).
private struct ContactBirthday: DecodableRow {
  enum Columns: Int, RowColumns { case userID, id, birthday }
  static let table = "contacts"
  let userID: UserID
  let id: ContactID
  private let row: RowDecoder<Columns>

  init(_ row: RowDecoder<Columns>) {
    userID = row.key(.userID)
    id = row.key(.id)
    self.row = row
  }

  /// The birthday's bytes, valid only during the call and only inside the row callback; nil for
  /// NULL (the query reads none).
  func withBirthday<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
    try row.withUTF8(.birthday, body)
  }
}

/// An open reminder, with whether its contact is live and the user's own.
private struct OpenReminder: DecodableRow {
  enum Columns: Int, RowColumns { case userID, id, contactID, dueOn, contactIsLive }
  static let table = "reminders"
  let userID: UserID
  let reminder: Reminder

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    // `due_on` is the services' text, whatever they wrote: the window counts a malformed one.
    reminder = Reminder(
      id: row.key(.id), contactID: row.key(.contactID), dueOn: row.textIfPresent(.dueOn),
      contactIsLive: try row.integer(.contactIsLive) == 1)
  }
}

/// An `upcoming_events` row as the sync compares it.
private struct StoredUpcomingEvent: DecodableRow {
  enum Columns: Int, RowColumns { case userID, kind, refID, occursOn, contactID, daysUntil, isDismissed }
  static let table = "upcoming_events"
  let userID: UserID
  let stored: UpcomingEvent.Stored

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    let key = UpcomingEvent.Key(
      kind: try row.text(.kind), refID: try row.integer(.refID), occursOn: try row.text(.occursOn))
    stored = UpcomingEvent.Stored(
      key: key, contactID: try row.integer(.contactID), daysUntil: try row.count(.daysUntil),
      isDismissed: try row.integer(.isDismissed) == 1)
  }
}

/// A stored reminder occurrence: the reminder and its contact.
private struct ReminderEvent: DecodableRow {
  enum Columns: Int, RowColumns { case userID, refID, contactID }
  static let table = "upcoming_events"
  let userID: UserID
  let refID: Int64
  let contactID: ContactID

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    refID = try row.integer(.refID)
    contactID = try row.integer(.contactID)
  }
}

/// An occurrence as upcoming-birthdays writes it; `dismissed_at` is the app's.
private struct UpcomingEventRow: EncodableRow {
  enum Columns: Int, RowColumns { case userID, contactID, kind, refID, occursOn, daysUntil, createdAt }
  static let table = "upcoming_events"
  let userID: UserID
  let event: UpcomingEvent
  let createdAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.contactID] = .integer(event.contactID)
    row[.kind] = .text(event.kind.rawValue)
    row[.refID] = .integer(event.refID)
    row[.occursOn] = SQLValue(event.occursOn)
    row[.daysUntil] = .integer(Int64(event.daysUntil))
    row[.createdAt] = .instant(createdAt)
  }
}
