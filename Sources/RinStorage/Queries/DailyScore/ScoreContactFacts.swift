import RinDomain

/// What daily-score derives from one contact's names and child rows, kept by owner in
/// `score_contact_facts` so that a night reads them in one run of rows per user instead of
/// probing four child tables per contact (their index probes were three quarters of the job's
/// time on production's id layout). None depends on the instant asked about: the enrichment's
/// time is kept, and compared with the window's end by the reader.
struct ScoreContactFacts: Equatable {
  /// The contact's `coalesce(updated_at, created_at)` when these were derived. The services bump
  /// `updated_at` when a contact's names, phones or emails change (docs/JOBS.md), so facts
  /// whose stamp differs from the contact's are derived again.
  var derivedFrom: UTCInstant
  var hasName = false
  var hasChannel = false
  /// The earliest `fetched_at` of its enrichments; nil when it has none.
  var enrichedAt: UTCInstant?
}

/// A contact whose facts are missing or stale, waiting for them to be derived.
struct ScoreContactToDerive {
  let userID: Int64
  let contactID: Int64
  let stamp: UTCInstant
  /// Deleted after the window's end (live at it): its facts serve this run and are not kept.
  let isDeleted: Bool
}

extension DailyScoreQueries {
  /// The stored facts of the contacts of `userIDs`, in (owner, contact) order.
  func storedScoreContactFacts(of userIDs: [SQLValue]) throws -> OwnerKeyedRows<ScoreContactFacts> {
    var stored = OwnerKeyedRows<ScoreContactFacts>()
    try sql.forEachRow(
      """
      SELECT user_id, contact_id, derived_from, has_name, has_channel, enriched_at FROM score_contact_facts
      WHERE user_id IN (\(SQLDialect.list(userIDs))) ORDER BY user_id, contact_id
      """
    ) { row in
      // Every column but the last is a key or NOT NULL in our own table.
      stored.append(
        owner: row.integer(0), contact: row.integer(1),
        ScoreContactFacts(
          derivedFrom: UTCInstant(seconds: row.integer(2)), hasName: row.integer(3) == 1,
          hasChannel: row.integer(4) == 1,
          enrichedAt: row.instant(5)))
    }
    return stored
  }

  /// Derives the facts of `contacts` from their names and child rows and stores them (bookkeeping,
  /// like a checkpoint: not reported as a change of the data contract). `scope` says how the
  /// child tables are read: the contacts' ids when they are a few of the batch's, else the
  /// batch's ranges or users (a first night derives every contact).
  func deriveScoreContactFacts(_ contacts: [ScoreContactToDerive], scope: ContactScope) throws
    -> [Int64: ScoreContactFacts]
  {
    var facts: [Int64: ScoreContactFacts] = [:]
    facts.reserveCapacity(contacts.count)
    for contact in contacts { facts[contact.contactID] = ScoreContactFacts(derivedFrom: contact.stamp) }
    // Names are only asked whether one is not blank: answered on their bytes, in order.
    try sql.forEachRow(scope.query(Self.namesQuery, end: 0, dialect: sql.dialect)) { row in
      guard let id = row.int64(0), facts[id] != nil else { return }
      facts[id]?.hasName = (1...3).contains { row.withUTF8($0, ScoreContact.isNotBlank(utf8:)) ?? false }
    }
    for query in Self.channelQueries {
      try sql.forEachRow(scope.query(query, end: 0, dialect: sql.dialect)) { row in
        if let id = row.int64(0), facts[id] != nil { facts[id]?.hasChannel = true }
      }
    }
    try sql.forEachRow(scope.query(Self.enrichmentsQuery, end: 0, dialect: sql.dialect)) { row in
      guard let id = row.int64(0), let fetched = row.instant(1), let known = facts[id] else { return }
      facts[id]?.enrichedAt = min(known.enrichedAt ?? fetched, fetched)
    }
    try Self.scoreContactFactsUpsert.execute(
      contacts.compactMap { contact in
        contact.isDeleted
          ? nil
          : facts[contact.contactID].map { f in
            [
              .integer(contact.userID), .integer(contact.contactID), .instant(f.derivedFrom),
              .integer(f.hasName ? 1 : 0), .integer(f.hasChannel ? 1 : 0),
              SQLValue(f.enrichedAt),
            ]
          }
      }, on: sql)
    return facts
  }

  /// A contact's enrichments changed: its stored score facts no longer hold, and daily-score
  /// derives them again (enrichment-fetch calls this with every enrichment it writes).
  func forgetScoreContactFacts(userID: Int64, contactIDs: [Int64]) throws {
    guard !contactIDs.isEmpty else { return }
    _ = try sql.execute(
      "DELETE FROM score_contact_facts WHERE user_id = \(.integer(userID)) AND contact_id IN (\(SQLDialect.list(contactIDs)))"
    )
  }

  private static let namesQuery = ScopedQuery(
    "SELECT c.id, c.given_name, c.family_name, c.display_name FROM contacts c WHERE {contacts:c.id}")

  /// `raw >= '!'` answers "not blank" at once for text whose first byte is above the space
  /// (byte order: SQLite's BINARY collation; PostgreSQL needs `COLLATE "C"` for it), so `trim`
  /// runs only on text that starts with a blank (trim was 2/3 of the phone scan).
  private static let channelQueries = [
    ScopedQuery(
      """
      SELECT p.contact_id FROM contact_phones p
      WHERE {contacts:p.contact_id} AND (p.raw >= '!' OR trim(p.raw, ' \t\r\n') <> '')
      """),
    ScopedQuery(
      """
      SELECT e.contact_id FROM contact_emails e
      WHERE {contacts:e.contact_id} AND (e.address >= '!' OR trim(e.address, ' \t\r\n') <> '')
      """),
  ]

  private static let enrichmentsQuery = ScopedQuery(
    "SELECT x.contact_id, x.fetched_at FROM contact_enrichments x WHERE {contacts:x.contact_id}")

  private static let scoreContactFactsUpsert = MultiRowStatement(
    head:
      "INSERT INTO score_contact_facts (user_id, contact_id, derived_from, has_name, has_channel, enriched_at) VALUES",
    columns: 6,
    tail: """
      ON CONFLICT (user_id, contact_id) DO UPDATE SET derived_from = excluded.derived_from,
        has_name = excluded.has_name, has_channel = excluded.has_channel, enriched_at = excluded.enriched_at
      """)
}
