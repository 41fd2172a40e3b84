import RinDomain

extension EnrichmentQueries {
  /// Caches one paid-for answer (a match or a no-match) until `expiresAt`.
  public func putLookup(_ row: LookupRow, provider: String, isNew: Bool) throws {
    try putLookups([(row, isNew)], provider: provider)
  }

  /// Caches a response's answers in a few multi-row statements (one statement per answer was
  /// most of a first night's server time: 853,867 of them at S). `rows` hold distinct keys.
  public func putLookups(_ rows: [(row: LookupRow, isNew: Bool)], provider: String) throws {
    try Self.lookupUpsert.execute(rows, on: sql) { entry, values in
      let row = entry.row
      let key = LookupCacheKey(provider: provider, key: row.key)
      values += [.integer(key.high), .integer(key.low), .instant(row.expiresAt)]
      switch row.status {
      case .match:
        values += [
          .instant(row.fetchedAt), .integer(key.checkHigh), .integer(key.checkLow), SQLValue(row.response),
        ]
      case .noMatch:
        values += [.null, .null, .null, .null]
      }
    }
    // Samples name the provider and the outcome only: a key is a hash of a phone or an email.
    for (row, isNew) in rows {
      changes.record(
        "enrichment_lookups", isNew ? .insert : .update, sample: "\(provider): \(row.status.rawValue)")
    }
  }

  private static let lookupUpsert = MultiRowStatement(
    head: """
      INSERT INTO enrichment_lookups (key_high, key_low, expires_at, fetched_at, check_high, check_low, response)
        VALUES
      """,
    columns: 7,
    tail: """
      ON CONFLICT (key_high, key_low) DO UPDATE SET expires_at = excluded.expires_at,
        fetched_at = excluded.fetched_at, check_high = excluded.check_high, check_low = excluded.check_low,
        response = excluded.response
      """)

  /// Inserts or updates one enrichment. A new value resets `seen_at` (the user has not seen it);
  /// the same value with a new confidence keeps it.
  /// The contact's stored score facts are forgotten with it: daily-score derives them again.
  public func putEnrichment(
    userID: Int64, contactID: Int64, field: String, source: String, value: String, confidence: Double,
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
  public func putEnrichments(_ writes: [EnrichmentUpsert]) throws {
    guard !writes.isEmpty else { return }
    try Self.enrichmentUpsert.execute(writes, on: sql) { write, values in
      values += [
        .integer(write.contactID), .text(write.field), .text(write.value), .text(write.source),
        .real(write.confidence), .instant(write.fetchedAt), .null,
      ]
    }
    let contactsByOwner = Dictionary(grouping: writes, by: \.userID).mapValues { Set($0.map(\.contactID)) }
    for (owner, contacts) in contactsByOwner.sorted(by: { $0.key < $1.key }) {
      try forgetScoreContactFacts(userID: owner, contactIDs: contacts.sorted())
    }
    try forgetScoreTallies(of: contactsByOwner.keys.sorted())
    for write in writes {
      changes.record(
        "contact_enrichments", write.isNew ? .insert : .update,
        sample: "contact \(write.contactID) \(write.field) (\(write.source))")
    }
  }

  private static let enrichmentUpsert = MultiRowStatement(
    head:
      "INSERT INTO contact_enrichments (contact_id, field, value, source, confidence, fetched_at, seen_at) VALUES",
    columns: 7,
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
  public func linkRinUser(contactID: Int64, userID: Int64) throws {
    var affected: [Int64] = [userID]
    try sql.forEachRow(
      "SELECT user_id, rin_user_id FROM contacts WHERE id = \(.integer(contactID)) AND (rin_user_id IS NULL OR rin_user_id <> \(.integer(userID)))"
    ) { row in
      affected += [row.int64(0), row.int64(1)].compactMap { $0 }
    }
    let changed = try sql.execute(
      "UPDATE contacts SET rin_user_id = \(.integer(userID)) WHERE id = \(.integer(contactID)) AND (rin_user_id IS NULL OR rin_user_id <> \(.integer(userID)))"
    )
    if changed > 0 {
      try forgetScoreTallies(of: affected)
      changes.record("contacts", .update, sample: "contact \(contactID): rin_user_id \(userID)")
    }
  }
}
