import RinDomain

/// upcoming-birthdays' kept owner states (docs/JOBS.md "upcoming-birthdays: what counts as a
/// change"): read and checked per batch with a fixed number of queries, each reaching an owner's
/// rows through an index keyed by owner.
extension UpcomingBirthdaysQueries {
  /// Each user's `timezone` as written and, unless `states` is false, their kept state (nil
  /// when none, or when it does not read back: the owner is examined again). One statement for
  /// both, the state joined by owner: on PostgreSQL a round trip and a plan fewer per batch.
  public func upcomingOwners(of userIDs: [Int64], states: Bool) throws
    -> [(userID: Int64, zone: String?, state: UpcomingOwnerState?)]
  {
    var owners: [(userID: Int64, zone: String?, state: UpcomingOwnerState?)] = []
    owners.reserveCapacity(userIDs.count)
    let ids = SQLDialect.list(userIDs)
    let query: SQLFragment =
      states
      ? """
      SELECT u.id, u.timezone, s.today, s.zone, s.inputs_digest, s.stamps_after
      FROM users u LEFT JOIN upcoming_owner_states s ON s.user_id = u.id WHERE u.id IN (\(ids))
      """
      : "SELECT id, timezone FROM users WHERE id IN (\(ids))"
    try sql.forEachBatchRow(query) { row in
      guard let user = row.int64(0) else { return }
      var state: UpcomingOwnerState?
      if states, let today = row.text(2).flatMap(CalendarDate.init), let digest = row.int64(4),
        let stampsAfter = row.instant(5)
      {
        state = UpcomingOwnerState(
          today: today, zone: row.text(3), inputsDigest: digest, stampsAfter: stampsAfter)
      }
      owners.append((user, row.text(1), state))
    }
    return owners
  }

  /// The owners among `states` with a contact created, edited or deleted after their state's
  /// `stampsAfter`: a run over each owner's entries of `contacts_for_score_by_user`
  /// (`SQLDialect.contactChanged`), asked of the candidates the run's pass found
  /// (`collectUpcomingOwnersChanged`) or, without a pass, of every owner. (A dismissal changes
  /// no row the job writes: see docs/JOBS.md "upcoming-birthdays", "What counts as a change".)
  public func upcomingOwnersChanged(since states: [Int64: UpcomingOwnerState]) throws -> Set<Int64> {
    guard !states.isEmpty else { return [] }
    let owners = states.keys.sorted()
    // Typed, so that PostgreSQL compares the pairs as numbers (a bare parameter in VALUES is text).
    let pairs = owners.map { owner -> SQLFragment in
      "(CAST(\(owner) AS BIGINT), CAST(\(states[owner]!.stampsAfter) AS BIGINT))"
    }
    var changed = Set<Int64>()
    try sql.forEachBatchRow(
      """
      WITH t (user_id, since) AS (VALUES \(pairs.joined(separator: ", ")))
      SELECT t.user_id FROM t WHERE
        \(literal: sql.dialect.contactChanged(owner: "t.user_id", since: "t.since"))
      """
    ) { row in
      if let user = row.int64(0) { changed.insert(user) }
    }
    return changed
  }

  /// The earliest kept instant of any owner's state: every contact stamped after an owner's
  /// own instant is stamped after this one.
  public func earliestUpcomingStampsAfter() throws -> UTCInstant? {
    try sql.integerValue("SELECT min(stamps_after) AS value FROM upcoming_owner_states").map(
      UTCInstant.init(seconds:))
  }

  /// Replaces upcoming-birthdays' candidate owners of `scope` (`changed_owners`) by the owners
  /// of `selection`'s shard with a contact created, edited or deleted after `since`: one range
  /// over `contacts_by_change`, about as many entries as contacts changed since (a day's
  /// worth), instead of asking every owner in every batch (on PostgreSQL a visit to the table
  /// per owner, most of an hourly run's statement time). A candidate is
  /// then checked against its own instant (`upcomingOwnersChanged`). Returns the candidates.
  @discardableResult
  public func collectUpcomingOwnersChanged(since: UTCInstant, scope: String, in selection: UserSelection)
    throws
    -> Int
  {
    try replaceChangedOwners(
      job: .upcomingBirthdays, scope: scope, in: selection,
      owners:
        "SELECT c.user_id AS user_id FROM contacts c WHERE \(literal: sql.dialect.contactChangeStamp("c")) > \(since)"
    )
  }

  /// Streams the open reminders of `ids` as they are written (id, contact, due date), without
  /// asking whether their contact is live: what `UpcomingOwnerState.digest` is of, read for every
  /// owner every run (a contact's deletion is seen by its own stamp).
  public func forEachOpenReminderAsWritten(
    of ids: [Int64],
    _ body: (_ userID: Int64, _ id: Int64, _ contactID: Int64, _ dueOn: String?) throws -> Void
  ) throws {
    try sql.forEachBatchRow(
      """
      SELECT user_id, id, contact_id, due_on FROM reminders
      WHERE user_id IN (\(SQLDialect.list(ids))) AND completed_at IS NULL
      """
    ) { row in
      guard let user = row.int64(0), let id = row.int64(1), let contact = row.int64(2) else { return }
      try body(user, id, contact, row.text(3))
    }
  }

  public func putUpcomingOwnerStates(_ states: [(userID: Int64, state: UpcomingOwnerState)]) throws {
    try Self.upcomingOwnerStateUpsert.execute(states, on: sql) { entry, values in
      values += [
        .integer(entry.userID), SQLValue(entry.state.today), SQLValue(entry.state.zone),
        .integer(entry.state.inputsDigest), .instant(entry.state.stampsAfter),
      ]
    }
  }

  private static let upcomingOwnerStateUpsert = MultiRowStatement(
    head: "INSERT INTO upcoming_owner_states (user_id, today, zone, inputs_digest, stamps_after) VALUES",
    columns: 5,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET today = excluded.today, zone = excluded.zone,
        inputs_digest = excluded.inputs_digest, stamps_after = excluded.stamps_after
      """)

  /// Deletes the upcoming events (and kept states) of the selected users whose account is
  /// deleted: a run walks live users only, so nothing else would ever take their rows away.
  /// Returns the events deleted.
  @discardableResult
  public func deleteUpcomingRowsOfDeletedUsers(in selection: UserSelection) throws -> Int {
    let deleted = (["deleted_at IS NOT NULL"] + selection.membershipClause()).joined(separator: " AND ")
    let users: SQLFragment = "SELECT id FROM users WHERE \(deleted)"
    let events = try sql.execute(
      "DELETE FROM upcoming_events WHERE \(sql.dialect.isIn("user_id", subquery: users))")
    _ = try sql.execute(
      "DELETE FROM upcoming_owner_states WHERE \(sql.dialect.isIn("user_id", subquery: users))")
    if events > 0 {
      changes.record(
        "upcoming_events", .delete, count: events, sample: "\(events) events of deleted accounts")
    }
    return events
  }
}
