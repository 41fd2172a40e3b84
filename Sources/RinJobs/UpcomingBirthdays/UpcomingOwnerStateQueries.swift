import RinDomain
import RinStorage

/// upcoming-birthdays' kept owner states (docs/JOBS.md "upcoming-birthdays: what counts as a
/// change"): read and checked per batch with a fixed number of queries, each reaching an owner's
/// rows through an index keyed by owner.
extension UpcomingBirthdaysQueries {
  /// Each user's `timezone` as written and, unless `states` is false, their kept state (nil
  /// when none, or when its date does not read back: the owner is examined again). One
  /// statement for both, the state joined by owner: on PostgreSQL a round trip and a plan fewer
  /// per batch.
  func upcomingOwners(of userIDs: [UserID], states: Bool) throws
    -> [(userID: UserID, zone: String?, state: UpcomingOwnerState?)]
  {
    var owners: [(userID: UserID, zone: String?, state: UpcomingOwnerState?)] = []
    owners.reserveCapacity(userIDs.count)
    let ids = SQLDialect.list(userIDs)
    guard states else {
      try tx.sql.forEachInBatch(
        OwnerZone.self, "SELECT \(columns: OwnerZone.Columns.self) FROM users WHERE id IN (\(ids))"
      ) { owners.append(($0.id, $0.timezone, nil)) }
      return owners
    }
    try tx.sql.forEachInBatch(
      OwnerZoneAndState.self,
      """
      SELECT u.id, u.timezone, s.today, s.zone, s.inputs_digest, s.stamps_after
      FROM users u LEFT JOIN upcoming_owner_states s ON s.user_id = u.id WHERE u.id IN (\(ids))
      """
    ) { owners.append(($0.id, $0.timezone, $0.state)) }
    return owners
  }

  /// The owners among `states` with a contact created, edited or deleted after their state's
  /// `stampsAfter`: a run over each owner's entries of `contacts_for_score_by_user`
  /// (`SQLDialect.contactChanged`), asked of the candidates the run's pass found
  /// (`collectUpcomingOwnersChanged`) or, without a pass, of every owner. (A dismissal changes
  /// no row the job writes: see docs/JOBS.md "upcoming-birthdays", "What counts as a change".)
  func upcomingOwnersChanged(since states: [UserID: UpcomingOwnerState]) throws -> Set<UserID> {
    guard !states.isEmpty else { return [] }
    let owners = states.keys.sorted()
    // Typed, so that PostgreSQL compares the pairs as numbers (a bare parameter in VALUES is text).
    let pairs = owners.map { owner -> SQLFragment in
      "(CAST(\(owner) AS BIGINT), CAST(\(states[owner]!.stampsAfter) AS BIGINT))"
    }
    var changed = Set<UserID>()
    try tx.sql.forEachInBatch(
      OwnerRow.self,
      """
      WITH t (user_id, since) AS (VALUES \(pairs.joined(separator: ", ")))
      SELECT \(columns: OwnerRow.Columns.self, from: "t") FROM t WHERE
        \(literal: tx.sql.dialect.contactChanged(owner: "t.user_id", since: "t.since"))
      """
    ) { changed.insert($0.userID) }
    return changed
  }

  /// The earliest kept instant of any owner's state: every contact stamped after an owner's
  /// own instant is stamped after this one.
  func earliestUpcomingStampsAfter() throws -> UTCInstant? {
    try tx.sql.integerValue("SELECT min(stamps_after) AS value FROM upcoming_owner_states").map(
      UTCInstant.init(seconds:))
  }

  /// Replaces upcoming-birthdays' candidate owners of `scope` (`changed_owners`) by the owners
  /// of `selection`'s shard with a contact created, edited or deleted after `since`: one range
  /// over `contacts_by_change`, about as many entries as contacts changed since (a day's
  /// worth), instead of asking every owner in every batch (on PostgreSQL a visit to the table
  /// per owner, most of an hourly run's statement time). A candidate is
  /// then checked against its own instant (`upcomingOwnersChanged`). Returns the candidates.
  @discardableResult
  func collectUpcomingOwnersChanged(since: UTCInstant, scope: String, in selection: UserSelection)
    throws
    -> Int
  {
    try tx.replaceChangedOwners(
      job: .upcomingBirthdays, scope: scope, in: selection,
      owners:
        "SELECT c.user_id AS user_id FROM contacts c WHERE \(literal: tx.sql.dialect.contactChangeStamp("c")) > \(since)"
    )
  }

  /// Streams the open reminders of `ids` as they are written (id, contact, due date), without
  /// asking whether their contact is live: what `UpcomingOwnerState.digest` is of, read for every
  /// owner every run (a contact's deletion is seen by its own stamp).
  func forEachOpenReminderAsWritten(
    of ids: [UserID],
    _ body: (_ userID: UserID, _ id: Int64, _ contactID: ContactID, _ dueOn: String?) throws -> Void
  ) throws {
    try tx.sql.forEachInBatch(
      ReminderAsWritten.self,
      """
      SELECT \(columns: ReminderAsWritten.Columns.self) FROM reminders
      WHERE user_id IN (\(SQLDialect.list(ids))) AND completed_at IS NULL
      """
    ) { try body($0.userID, $0.id, $0.contactID, $0.dueOn) }
  }

  func putUpcomingOwnerStates(_ states: [(userID: UserID, state: UpcomingOwnerState)]) throws {
    try Self.upcomingOwnerStateUpsert.execute(
      rows: states.map { UpcomingOwnerStateRow(userID: $0.userID, state: $0.state) }, on: tx.sql)
  }

  private static let upcomingOwnerStateUpsert = MultiRowStatement(
    inserting: UpcomingOwnerStateRow.self,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET today = excluded.today, zone = excluded.zone,
        inputs_digest = excluded.inputs_digest, stamps_after = excluded.stamps_after
      """)

  /// Deletes the upcoming events (and kept states) of the selected users whose account is
  /// deleted: a run walks live users only, so nothing else would ever take their rows away.
  /// Returns the events deleted.
  @discardableResult
  func deleteUpcomingRowsOfDeletedUsers(in selection: UserSelection) throws -> Int {
    let deleted = (["deleted_at IS NOT NULL"] + selection.membershipClause()).joined(separator: " AND ")
    let users: SQLFragment = "SELECT id FROM users WHERE \(deleted)"
    let events = try tx.sql.execute(
      "DELETE FROM upcoming_events WHERE \(tx.sql.dialect.isIn("user_id", subquery: users))")
    _ = try tx.sql.execute(
      "DELETE FROM upcoming_owner_states WHERE \(tx.sql.dialect.isIn("user_id", subquery: users))")
    if events > 0 {
      tx.changes.record(
        "upcoming_events", .delete, count: events, sample: "\(events) events of deleted accounts")
    }
    return events
  }
}

/// A user's `timezone` as the services wrote it (any text, or NULL).
private struct OwnerZone: DecodableRow {
  enum Columns: Int, RowColumns { case id, timezone }
  static let table = "users"
  let id: UserID
  let timezone: String?

  init(_ row: RowDecoder<Columns>) {
    id = row.key(.id)
    timezone = row.textIfPresent(.timezone)
  }
}

/// A user's `timezone` and their kept `upcoming_owner_states` row, NULL where they have none.
private struct OwnerZoneAndState: DecodableRow {
  enum Columns: Int, RowColumns { case id, timezone, today, zone, inputsDigest, stampsAfter }
  static let table = "upcoming_owner_states"
  let id: UserID
  let timezone: String?
  let state: UpcomingOwnerState?

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    timezone = row.textIfPresent(.timezone)
    guard let today = row.textIfPresent(.today).flatMap(CalendarDate.init),
      let digest = try row.integerIfPresent(.inputsDigest),
      let stampsAfter = try row.instantIfPresent(.stampsAfter)
    else {
      state = nil
      return
    }
    state = UpcomingOwnerState(
      today: today, zone: row.textIfPresent(.zone), inputsDigest: digest, stampsAfter: stampsAfter)
  }
}

/// An open reminder as the services wrote it, what `UpcomingOwnerState.digest` is of.
private struct ReminderAsWritten: DecodableRow {
  enum Columns: Int, RowColumns { case userID, id, contactID, dueOn }
  static let table = "reminders"
  let userID: UserID
  let id: Int64
  let contactID: ContactID
  let dueOn: String?

  init(_ row: RowDecoder<Columns>) {
    userID = row.key(.userID)
    id = row.key(.id)
    contactID = row.key(.contactID)
    dueOn = row.textIfPresent(.dueOn)
  }
}

/// An owner's kept state, as the next run compares it.
private struct UpcomingOwnerStateRow: EncodableRow {
  enum Columns: Int, RowColumns { case userID, today, zone, inputsDigest, stampsAfter }
  static let table = "upcoming_owner_states"
  let userID: UserID
  let state: UpcomingOwnerState

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.today] = SQLValue(state.today)
    row[.zone] = SQLValue(state.zone)
    row[.inputsDigest] = .integer(state.inputsDigest)
    row[.stampsAfter] = .instant(state.stampsAfter)
  }
}
