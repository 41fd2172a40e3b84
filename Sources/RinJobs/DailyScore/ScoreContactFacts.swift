import RinDomain
import RinStorage

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
  let userID: UserID
  let contactID: ContactID
  let stamp: UTCInstant
  /// Deleted after the window's end (live at it): its facts serve this run and are not kept.
  let isDeleted: Bool
}

extension DailyScoreQueries {
  /// The stored facts of the contacts of `userIDs`, in (owner, contact) order.
  func storedScoreContactFacts(of userIDs: [SQLValue]) throws -> OwnerKeyedRows<ScoreContactFacts> {
    var stored = OwnerKeyedRows<ScoreContactFacts>()
    try sql.forEach(
      ScoreContactFactsRow.self,
      """
      SELECT \(columns: ScoreContactFactsRow.Columns.self) FROM score_contact_facts
      WHERE user_id IN (\(SQLDialect.list(userIDs))) ORDER BY user_id, contact_id
      """
    ) { stored.append(owner: $0.userID, contact: $0.contactID, $0.facts) }
    return stored
  }

  /// Derives the facts of `contacts` from their names and child rows and stores them (bookkeeping,
  /// like a checkpoint: not reported as a change of the data contract). `scope` says how the
  /// child tables are read: the contacts' ids when they are a few of the batch's, else the
  /// batch's ranges or users (a first night derives every contact). Keyed by the contacts' ids'
  /// integers: a dictionary per contact, whose Int64 keys hash faster than typed ids.
  func deriveScoreContactFacts(_ contacts: [ScoreContactToDerive], scope: ContactScope) throws
    -> [Int64: ScoreContactFacts]
  {
    var facts: [Int64: ScoreContactFacts] = [:]
    facts.reserveCapacity(contacts.count)
    for contact in contacts {
      facts[contact.contactID.rawValue] = ScoreContactFacts(derivedFrom: contact.stamp)
    }
    // Names are only asked whether one is not blank: answered on their bytes, in order.
    try sql.forEach(ContactNames.self, scope.query(Self.namesQuery, end: 0, dialect: sql.dialect)) { row in
      guard facts[row.contactID.rawValue] != nil else { return }
      facts[row.contactID.rawValue]?.hasName = row.hasName
    }
    for query in Self.channelQueries {
      try sql.forEach(ContactWithChannel.self, scope.query(query, end: 0, dialect: sql.dialect)) { row in
        if facts[row.contactID.rawValue] != nil { facts[row.contactID.rawValue]?.hasChannel = true }
      }
    }
    try sql.forEach(ContactEnrichment.self, scope.query(Self.enrichmentsQuery, end: 0, dialect: sql.dialect))
    {
      row in
      guard let fetched = row.fetchedAt, let known = facts[row.contactID.rawValue] else { return }
      facts[row.contactID.rawValue]?.enrichedAt = min(known.enrichedAt ?? fetched, fetched)
    }
    try Self.scoreContactFactsUpsert.execute(
      rows: contacts.compactMap { contact in
        contact.isDeleted
          ? nil
          : facts[contact.contactID.rawValue].map {
            ScoreContactFactsRow(userID: contact.userID, contactID: contact.contactID, facts: $0)
          }
      }, on: sql)
    return facts
  }

  private static let namesQuery = ScopedQuery(
    "SELECT c.id AS contact_id, c.given_name, c.family_name, c.display_name FROM contacts c WHERE {contacts:c.id}"
  )

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
    inserting: ScoreContactFactsRow.self,
    tail: """
      ON CONFLICT (user_id, contact_id) DO UPDATE SET derived_from = excluded.derived_from,
        has_name = excluded.has_name, has_channel = excluded.has_channel, enriched_at = excluded.enriched_at
      """)
}

/// A contact's `score_contact_facts` row.
struct ScoreContactFactsRow: DecodableRow, EncodableRow {
  enum Columns: Int, RowColumns { case userID, contactID, derivedFrom, hasName, hasChannel, enrichedAt }
  static let table = "score_contact_facts"
  let userID: UserID
  let contactID: ContactID
  let facts: ScoreContactFacts

  init(userID: UserID, contactID: ContactID, facts: ScoreContactFacts) {
    self.userID = userID
    self.contactID = contactID
    self.facts = facts
  }

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    contactID = row.key(.contactID)
    facts = ScoreContactFacts(
      derivedFrom: UTCInstant(seconds: row.integerDeclaredNotNull(.derivedFrom)),
      hasName: row.integerDeclaredNotNull(.hasName) == 1,
      hasChannel: row.integerDeclaredNotNull(.hasChannel) == 1,
      enrichedAt: try row.instantIfPresent(.enrichedAt))
  }

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.contactID] = .integer(contactID)
    row[.derivedFrom] = .instant(facts.derivedFrom)
    row[.hasName] = .integer(facts.hasName ? 1 : 0)
    row[.hasChannel] = .integer(facts.hasChannel ? 1 : 0)
    row[.enrichedAt] = SQLValue(facts.enrichedAt)
  }
}

/// Whether any of a contact's names is not blank, asked of their bytes.
private struct ContactNames: DecodableRow {
  enum Columns: Int, RowColumns { case contactID, givenName, familyName, displayName }
  static let table = "contacts"
  let contactID: ContactID
  let hasName: Bool

  init(_ row: RowDecoder<Columns>) throws {
    contactID = row.key(.contactID)
    let isNotBlank = ScoreContact.isNotBlank(utf8:)
    hasName =
      row.withUTF8(.givenName, isNotBlank) == true || row.withUTF8(.familyName, isNotBlank) == true
      || row.withUTF8(.displayName, isNotBlank) == true
  }
}

/// A contact with a phone or an email that is not blank.
private struct ContactWithChannel: DecodableRow {
  enum Columns: Int, RowColumns { case contactID }
  static let table = "contact_phones, contact_emails"
  let contactID: ContactID

  init(_ row: RowDecoder<Columns>) throws { contactID = row.key(.contactID) }
}

/// When one of a contact's enrichments was fetched.
private struct ContactEnrichment: DecodableRow {
  enum Columns: Int, RowColumns { case contactID, fetchedAt }
  static let table = "contact_enrichments"
  let contactID: ContactID
  let fetchedAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws {
    contactID = row.key(.contactID)
    fetchedAt = try row.instantIfPresent(.fetchedAt)
  }
}
