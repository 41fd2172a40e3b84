import RinDomain
import RinStorage

extension EnrichmentQueries {
  /// Caches one paid-for answer (a match or a no-match) until `expiresAt`.
  func putLookup(_ row: LookupRow, provider: String, isNew: Bool) throws {
    try putLookups([(row, isNew)], provider: provider)
  }

  /// Caches a response's answers in a few multi-row statements (one statement per answer was
  /// most of a first night's server time: 853,867 of them at S). `rows` hold distinct keys.
  func putLookups(_ rows: [(row: LookupRow, isNew: Bool)], provider: String) throws {
    try Self.lookupUpsert.execute(rows: rows.map { CachedAnswer(provider: provider, row: $0.row) }, on: sql)
    // Samples name the provider and the outcome only: a key is a hash of a phone or an email.
    for (row, isNew) in rows {
      tx.changes.record(
        "enrichment_lookups", isNew ? .insert : .update, sample: "\(provider): \(row.status.rawValue)")
    }
  }

  private static let lookupUpsert = MultiRowStatement(
    inserting: CachedAnswer.self,
    tail: """
      ON CONFLICT (key_high, key_low) DO UPDATE SET expires_at = excluded.expires_at,
        fetched_at = excluded.fetched_at, check_high = excluded.check_high, check_low = excluded.check_low,
        response = excluded.response
      """)

  /// Inserts or updates one enrichment. A new value resets `seen_at` (the user has not seen it);
  /// the same value with a new confidence keeps it.
  /// The contact's stored score facts are forgotten with it: daily-score derives them again.
  func putEnrichment(
    userID: UserID, contactID: ContactID, field: String, source: String, value: String, confidence: Double,
    fetchedAt: UTCInstant,
    isNew: Bool
  ) throws {
    try putEnrichments([
      EnrichmentUpsert(
        userID: userID, contactID: contactID, field: field, source: source, value: value,
        confidence: confidence, fetchedAt: fetchedAt, isNew: isNew)
    ])
  }

  /// `putEnrichment` for a batch's writes, in a few multi-row statements, forgetting each touched
  /// contact's score facts and each owner's tally once (a statement per value was a fifth of a
  /// first night's statements at S). At most one write per contact, field and source.
  func putEnrichments(_ writes: [EnrichmentUpsert]) throws {
    guard !writes.isEmpty else { return }
    try Self.enrichmentUpsert.execute(rows: writes, on: sql)
    let contactsByOwner = Dictionary(grouping: writes, by: \.userID).mapValues { Set($0.map(\.contactID)) }
    for (owner, contacts) in contactsByOwner.sorted(by: { $0.key < $1.key }) {
      try tx.forgetScoreContactFacts(userID: owner, contactIDs: contacts.sorted())
    }
    try tx.forgetScoreTallies(of: contactsByOwner.keys.sorted())
    for write in writes {
      tx.changes.record(
        "contact_enrichments", write.isNew ? .insert : .update,
        sample: "contact \(write.contactID) \(write.field) (\(write.source))")
    }
  }

  private static let enrichmentUpsert = MultiRowStatement(
    inserting: EnrichmentUpsert.self,
    tail: """
      ON CONFLICT (contact_id, field, source) DO UPDATE SET value = excluded.value,
        confidence = excluded.confidence, fetched_at = excluded.fetched_at,
        seen_at = CASE WHEN contact_enrichments.value = excluded.value
          THEN contact_enrichments.seen_at ELSE NULL END
      """)

  /// Links a contact to the Rin user it is (docs/CONTRACT.md §3.3, Rin-network source).
  /// No stamp of the services' shows the link, so daily-score forgets what it counted of the
  /// owner (*rin*), of the Rin user linked before, and of the one linked now (*mutual*: their
  /// contacts pointing back to the owner).
  func linkRinUser(contactID: ContactID, userID: UserID) throws {
    var affected: [UserID] = [userID]
    let relinked: SQLFragment =
      "id = \(.integer(contactID)) AND (rin_user_id IS NULL OR rin_user_id <> \(.integer(userID)))"
    try sql.forEach(
      LinkedContact.self, "SELECT \(columns: LinkedContact.Columns.self) FROM contacts WHERE \(relinked)"
    ) { row in
      affected.append(row.userID)
      if let previous = row.rinUserID { affected.append(previous) }
    }
    let changed = try sql.execute("UPDATE contacts SET rin_user_id = \(.integer(userID)) WHERE \(relinked)")
    if changed > 0 {
      try tx.forgetScoreTallies(of: affected)
      tx.changes.record("contacts", .update, sample: "contact \(contactID): rin_user_id \(userID)")
    }
  }
}

/// An `enrichment_lookups` row as `putLookups` writes it: a no-match keeps its key and expiry
/// only.
private struct CachedAnswer: EncodableRow {
  enum Columns: Int, RowColumns { case keyHigh, keyLow, expiresAt, fetchedAt, checkHigh, checkLow, response }
  static let table = "enrichment_lookups"
  let key: LookupCacheKey
  let row: LookupRow

  init(provider: String, row: LookupRow) {
    key = LookupCacheKey(provider: provider, key: row.key)
    self.row = row
  }

  func encode(to values: inout RowEncoder<Columns>) {
    values[.keyHigh] = .integer(key.high)
    values[.keyLow] = .integer(key.low)
    values[.expiresAt] = .instant(row.expiresAt)
    guard row.status == .match else { return }
    values[.fetchedAt] = .instant(row.fetchedAt)
    values[.checkHigh] = .integer(key.checkHigh)
    values[.checkLow] = .integer(key.checkLow)
    values[.response] = SQLValue(row.response)
  }
}

/// The owner of a contact about to be linked, and the Rin user it was linked to (the services'
/// `contacts`).
private struct LinkedContact: DecodableRow {
  enum Columns: Int, RowColumns { case userID, rinUserID }
  static let table = "contacts"
  let userID: UserID
  let rinUserID: UserID?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    rinUserID = row.integerIfValid(.rinUserID)
  }
}
