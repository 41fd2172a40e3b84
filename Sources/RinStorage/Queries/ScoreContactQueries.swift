import RinDomain

extension StorageTransaction {
  /// Streams every contact of `ids` created up to `end` (live ones and deleted ones, which churn
  /// needs), with the existence checks answered for contacts live at `end` only.
  ///
  /// Six queries whatever the batch: the batch's contact ids (from the `contacts_by_user` index
  /// alone), one ordered scan each of phones, emails, enrichments and circle members over those
  /// ids' ranges (`ContactIDRanges`), then the contacts themselves over the same ranges. One
  /// correlated `EXISTS` per contact and table cost an index probe each: 70 % of the job at
  /// 5.8 M contacts.
  public func forEachScoreContact(
    of ids: [Int64], end: Int64, _ body: (_ userID: Int64, ScoreContact) throws -> Void
  ) throws {
    try forEachScoreContact(of: ids, end: end, rangesAllowed: true, body)
  }

  /// `rangesAllowed: false` probes per contact whatever the ids (tests compare both ways).
  func forEachScoreContact(
    of ids: [Int64], end: Int64, rangesAllowed: Bool, _ body: (_ userID: Int64, ScoreContact) throws -> Void
  ) throws {
    let userIDs = ids.map(SQLValue.integer)
    var contactIDs: [Int64] = []
    try sql.forEachRow("SELECT id FROM contacts WHERE user_id IN (\(SQLDialect.list(ids.count)))", userIDs) {
      if let id = $0.int64(0) { contactIDs.append(id) }
    }
    var flags = ContactFlags(ids: contactIDs)
    let ranges = rangesAllowed ? ContactIDRanges(sortedIDs: flags.ids) : nil
    let scope = ContactScope(ranges: ranges, userIDs: userIDs)
    for (flag, query) in Self.contactFlagQueries {
      try sql.forEachRow(scope.query(query, end: end, dialect: sql.dialect)) { row in
        if let id = row.int64(0) { flags.set(flag, for: id) }
      }
    }
    try sql.forEachRow(scope.query(Self.scoreContactsQuery, end: end, dialect: sql.dialect)) { row in
      // A range also holds other users' contacts.
      guard let id = row.int64(0), let found = flags.flags(of: id) else { return }
      let createdAt = row.int64(2) ?? 0
      let deletedAt = row.int64(3)
      let live = createdAt < end && (deletedAt.map { $0 >= end } ?? true)
      let facts = live ? found : 0
      // Names are only asked whether one is not blank: answered on their bytes, in order.
      let hasName = (4...6).contains { row.withUTF8($0, ScoreContact.isNotBlank(utf8:)) ?? false }
      try body(
        row.int64(1) ?? 0,
        ScoreContact(
          hasName: hasName, createdAt: createdAt, deletedAt: deletedAt,
          hasChannel: facts & ContactFlags.channel != 0,
          isEnriched: facts & ContactFlags.enriched != 0, isRinUser: row.int64(7) == 1,
          isMutual: row.int64(8) == 1, isOrganized: facts & ContactFlags.organized != 0))
    }
  }

  /// `rin_user_id IS NOT NULL` comes first so that SQLite skips the rest for most contacts.
  private static let scoreContactsQuery = ScopedQuery(
    """
    SELECT c.id, c.user_id, c.created_at, c.deleted_at, c.given_name, c.family_name, c.display_name,
      CASE WHEN c.rin_user_id IS NOT NULL AND c.created_at < :end AND (c.deleted_at IS NULL OR c.deleted_at >= :end)
      THEN EXISTS (SELECT 1 FROM users r WHERE r.id = c.rin_user_id AND r.created_at < :end
        AND (r.deleted_at IS NULL OR r.deleted_at >= :end))
      END,
      CASE WHEN c.rin_user_id IS NOT NULL AND c.created_at < :end AND (c.deleted_at IS NULL OR c.deleted_at >= :end)
      THEN EXISTS (SELECT 1 FROM contacts b WHERE b.rin_user_id = c.user_id AND b.user_id = c.rin_user_id
        AND b.created_at < :end AND (b.deleted_at IS NULL OR b.deleted_at >= :end))
      END
    FROM contacts c
    WHERE {contacts:c.id} AND c.created_at <= :end
    """)

  /// Contact ids that have a fact, one query per table; `{contacts:…}` is the batch's scope.
  /// `raw >= '!'` answers "not blank" at once for text whose first byte is above the space
  /// (byte order: SQLite's BINARY collation; PostgreSQL needs `COLLATE "C"` for it), so `trim`
  /// runs only on text that starts with a blank (trim was 2/3 of the phone scan).
  private static let contactFlagQueries: [(UInt8, ScopedQuery)] = [
    (
      ContactFlags.channel,
      ScopedQuery(
        """
        SELECT p.contact_id FROM contact_phones p
        WHERE {contacts:p.contact_id} AND (p.raw >= '!' OR trim(p.raw, ' \t\r\n') <> '')
        """)
    ),
    (
      ContactFlags.channel,
      ScopedQuery(
        """
        SELECT e.contact_id FROM contact_emails e
        WHERE {contacts:e.contact_id} AND (e.address >= '!' OR trim(e.address, ' \t\r\n') <> '')
        """)
    ),
    (
      ContactFlags.enriched,
      ScopedQuery(
        "SELECT x.contact_id FROM contact_enrichments x WHERE {contacts:x.contact_id} AND x.fetched_at < :end"
      )
    ),
    (
      ContactFlags.organized,
      ScopedQuery(
        """
        SELECT m.contact_id FROM circle_members m JOIN circles k ON k.id = m.circle_id
        WHERE {contacts:m.contact_id} AND k.kind IN ('prepopulated', 'custom')
          AND (m.added_at IS NULL OR m.added_at < :end)
          AND k.created_at < :end AND (k.deleted_at IS NULL OR k.deleted_at >= :end)
        """)
    ),
  ]
}
