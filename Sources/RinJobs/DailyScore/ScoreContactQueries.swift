import RinDomain
import RinStorage

extension DailyScoreQueries {
  /// Streams every contact of `ids` created up to `end` (live ones and deleted ones, which churn
  /// needs), with the existence checks answered for contacts live at `end` only.
  ///
  /// Every read goes through an index keyed by owner, so a batch costs the same however its
  /// users' contact ids are spread among everyone else's (docs/CONTRACT.md §6): the contacts from
  /// `contacts_for_score_by_user`, their names' and child rows' facts from
  /// `score_contact_facts`, their circles from `circles_by_user` and each circle's members in
  /// one run of `circle_members_by_circle_with_added_at`; *mutual* from
  /// `contacts_by_rin_user_with_owner`. Only contacts whose stored facts are missing or stale
  /// reach the child tables (every contact on a first night, the day's changes after it).
  func forEachScoreContact(
    of ids: [UserID], end: UTCInstant, _ body: (_ userID: UserID, ScoreContact) throws -> Void
  ) throws {
    try forEachScoreContact(of: ids, end: end, rangesAllowed: true, body)
  }

  /// `rangesAllowed: false` derives facts by probing per contact whatever the ids (tests compare
  /// both ways).
  func forEachScoreContact(
    of ids: [UserID], end: UTCInstant, rangesAllowed: Bool,
    _ body: (_ userID: UserID, ScoreContact) throws -> Void
  ) throws {
    let userIDs = ids.map(SQLValue.integer)
    var stored = try storedScoreContactFacts(of: userIDs)
    var organized = try organizedContacts(of: userIDs, end: end)
    var toDerive: [ScoreContactToDerive] = []
    var waiting: [(userID: UserID, contact: ScoreContact, id: ContactID)] = []
    var contactsRead = 0
    func isLive(_ contact: ScoreContact) -> Bool {
      contact.createdAt < end && (contact.deletedAt.map { $0 >= end } ?? true)
    }
    func emit(_ userID: UserID, _ contactID: ContactID, _ contact: ScoreContact, _ facts: ScoreContactFacts)
      throws
    {
      var contact = contact
      contact.hasName = facts.hasName
      if isLive(contact) {
        contact.hasChannel = facts.hasChannel
        contact.isEnriched = facts.enrichedAt.map { $0 < end } ?? false
        contact.enrichedAt = facts.enrichedAt
        contact.isOrganized = organized.lookUp(owner: userID, contact: contactID) != nil
      }
      try body(userID, contact)
    }
    try sql.forEach(ScoreContactRow.self, Self.scoreContactsQuery(users: userIDs, end: end)) { row in
      // The id, and the owner the query matched by value.
      let (id, userID, stamp, contact) = (row.id, row.userID, row.stamp, row.contact)
      contactsRead += 1
      // A contact not live at `end` counts for churn alone, by its times: its facts are not
      // needed, and none are derived or kept (a deleted contact's are erased, docs/OPERATIONS.md
      // "Erasure").
      if !isLive(contact) {
        try emit(userID, id, contact, ScoreContactFacts(derivedFrom: stamp))
      } else if let facts = stored.lookUp(owner: userID, contact: id), facts.derivedFrom == stamp {
        try emit(userID, id, contact, facts)
      } else {
        toDerive.append(
          ScoreContactToDerive(
            userID: userID, contactID: id, stamp: stamp, isDeleted: contact.deletedAt != nil))
        waiting.append((userID, contact, id))
      }
    }
    guard !toDerive.isEmpty else { return }
    let derived = try deriveScoreContactFacts(
      toDerive,
      scope: derivationScope(toDerive, of: contactsRead, userIDs: userIDs, rangesAllowed: rangesAllowed))
    for (userID, contact, id) in waiting {
      try emit(userID, id, contact, derived[id.rawValue] ?? ScoreContactFacts(derivedFrom: 0))
    }
  }

  /// A few contacts among the batch's are probed by id; most of them (a first night) are read
  /// the way the whole batch would be: in id ranges when they have few, else by owner.
  private func derivationScope(
    _ contacts: [ScoreContactToDerive], of total: Int, userIDs: [SQLValue], rangesAllowed: Bool
  ) -> ContactScope {
    if contacts.count * 4 < total && contacts.count <= Self.probeLimit {
      return ContactScope(ranges: nil, userIDs: userIDs, contactIDs: contacts.map { .integer($0.contactID) })
    }
    let ranges = rangesAllowed ? ContactIDRanges(sortedIDs: contacts.map(\.contactID.rawValue).sorted()) : nil
    return ContactScope(ranges: ranges, userIDs: userIDs)
  }

  /// Bound values in one `IN (…)` list: below both backends' limits (SQLite 32,766).
  static let probeLimit = 10_000

  /// The contacts in a live `prepopulated` or `custom` circle of their owner's at `end`, in
  /// (owner, contact) order: reached through the owner's circles, so that the read is keyed by
  /// owner, not by contact id. (A membership of another user's contact, which the services never
  /// write, does not count.)
  private func organizedContacts(of userIDs: [SQLValue], end: UTCInstant) throws -> OwnerKeyedRows<Void> {
    var organized = OwnerKeyedRows<Void>()
    try sql.forEach(
      CircleMembership.self,
      """
      SELECT k.user_id, m.contact_id FROM circles k JOIN circle_members m ON m.circle_id = k.id
      WHERE k.user_id IN (\(SQLDialect.list(userIDs))) AND k.kind IN ('prepopulated', 'custom')
        AND k.created_at < \(end) AND (k.deleted_at IS NULL OR k.deleted_at >= \(end))
        AND (m.added_at IS NULL OR m.added_at < \(end))
      ORDER BY k.user_id, m.contact_id
      """
    ) { row in
      if let contact = row.contactID { organized.append(owner: row.userID, contact: contact, ()) }
    }
    return organized
  }

  /// `rin_user_id IS NOT NULL` comes first so that SQLite skips the rest for most contacts.
  /// Every column is in `contacts_for_score_by_user`: no contact row is read.
  private static func scoreContactsQuery(users: [SQLValue], end: UTCInstant) -> SQLFragment {
    """
    SELECT c.id, c.user_id, c.created_at, c.deleted_at, coalesce(c.updated_at, c.created_at) AS stamp,
      CASE WHEN c.rin_user_id IS NOT NULL AND c.created_at < \(end) AND (c.deleted_at IS NULL OR c.deleted_at >= \(end))
      THEN EXISTS (SELECT 1 FROM users r WHERE r.id = c.rin_user_id AND r.created_at < \(end)
        AND (r.deleted_at IS NULL OR r.deleted_at >= \(end)))
      END AS is_rin_user,
      CASE WHEN c.rin_user_id IS NOT NULL AND c.created_at < \(end) AND (c.deleted_at IS NULL OR c.deleted_at >= \(end))
      THEN EXISTS (SELECT 1 FROM contacts b WHERE b.rin_user_id = c.user_id AND b.user_id = c.rin_user_id
        AND b.created_at < \(end) AND (b.deleted_at IS NULL OR b.deleted_at >= \(end)))
      END AS is_mutual
    FROM contacts c
    WHERE c.user_id IN (\(SQLDialect.list(users))) AND c.created_at <= \(end)
    ORDER BY c.user_id, c.id
    """
  }
}

/// A contact as the score reads it from `contacts_for_score_by_user`, with its existence checks.
private struct ScoreContactRow: DecodableRow {
  enum Columns: Int, RowColumns { case id, userID, createdAt, deletedAt, stamp, isRinUser, isMutual }
  static let table = "contacts"
  let id: ContactID
  let userID: UserID
  /// `coalesce(updated_at, created_at)`: the facts derived from an older stamp are stale.
  let stamp: UTCInstant
  let contact: ScoreContact

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    userID = row.key(.userID)
    // The services' times: an unreadable creation time reads as the epoch, a deletion time as none.
    let createdAt = row.instantIfValid(.createdAt) ?? UTCInstant(seconds: 0)
    stamp = row.instantIfValid(.stamp) ?? createdAt
    contact = ScoreContact(
      hasName: false, createdAt: createdAt, deletedAt: row.instantIfValid(.deletedAt),
      isRinUser: row.integerIfValid(.isRinUser) == 1, isMutual: row.integerIfValid(.isMutual) == 1)
  }
}

/// A contact in one of its owner's circles; nil where the services' member row names none.
private struct CircleMembership: DecodableRow {
  enum Columns: Int, RowColumns { case userID, contactID }
  static let table = "circle_members"
  let userID: UserID
  let contactID: ContactID?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    contactID = row.integerIfValid(.contactID)
  }
}
