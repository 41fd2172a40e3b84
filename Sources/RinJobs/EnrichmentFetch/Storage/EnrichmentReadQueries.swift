import RinDomain
import RinStorage

extension EnrichmentQueries {
  /// The batch's live contacts (ascending id) with their phones and emails (each sorted):
  /// three queries whatever the batch size. With `stampedAfter`, only those whose change stamp
  /// is later (the stamp tested on the owner's entries of `contacts_for_score_by_user`, the
  /// contact's row read only for those that pass).
  func enrichmentContacts(of userIDs: [UserID], stampedAfter: Int64? = nil) throws -> [EnrichmentContactRow] {
    guard !userIDs.isEmpty else { return [] }
    let stamped: SQLFragment =
      stampedAfter.map { " AND \(literal: sql.dialect.contactChangeStamp("c")) > \($0)" } ?? ""
    return try enrichmentContacts(where: "c.user_id IN (\(SQLDialect.list(userIDs)))\(stamped)")
  }

  /// These contacts, those live (ascending id), with their phones and emails, by key.
  func enrichmentContacts(ids contactIDs: [ContactID]) throws -> [EnrichmentContactRow] {
    guard !contactIDs.isEmpty else { return [] }
    return try enrichmentContacts(
      where: sql.dialect.isIn("c.id", subquery: sql.dialect.integerSet(contactIDs)))
  }

  /// These contacts, deleted ones too, with their phones and emails: what erasure hashes to
  /// find a deleted contact's cached answers (docs/OPERATIONS.md "Erasure").
  func channelsOfContacts(ids contactIDs: [ContactID]) throws -> [EnrichmentContactRow] {
    guard !contactIDs.isEmpty else { return [] }
    return try enrichmentContacts(
      where: sql.dialect.isIn("c.id", subquery: sql.dialect.integerSet(contactIDs)), liveOnly: false)
  }

  /// Every contact of these owners, deleted ones too, with their phones and emails.
  func channelsOfContacts(ofOwners userIDs: [UserID]) throws -> [EnrichmentContactRow] {
    guard !userIDs.isEmpty else { return [] }
    return try enrichmentContacts(where: "c.user_id IN (\(SQLDialect.list(userIDs)))", liveOnly: false)
  }

  /// The contacts `filter` (over `c`) selects: the live ones, or all with `liveOnly` false.
  private func enrichmentContacts(where filter: SQLFragment, liveOnly: Bool = true) throws
    -> [EnrichmentContactRow]
  {
    let filter: SQLFragment = liveOnly ? "\(filter) AND c.deleted_at IS NULL" : filter
    let dialect = sql.dialect
    var contacts: [EnrichmentContactRow] = []
    var index: [ContactID: Int] = [:]
    try sql.forEach(
      EnrichmentContactRow.self,
      """
      SELECT c.id, c.user_id, u.region AS owner_region, c.edited_fields, c.rin_user_id,
        \(literal: dialect.contactTerm(of: .enrichmentFetch, "c")) AS digest,
        \(literal: dialect.contactChangeStamp("c")) AS stamp
      FROM contacts c JOIN users u ON u.id = c.user_id
      WHERE \(filter) ORDER BY c.id
      """
    ) { contact in
      index[contact.id] = contacts.count
      contacts.append(contact)
    }
    // Each channel table in one read; its rows' terms complete the contact's digest.
    let channels:
      [(
        table: String, alias: String, column: String, term: String,
        list: WritableKeyPath<EnrichmentContactRow, [String]>
      )] = [
        ("contact_phones", "p", "raw", dialect.phoneTerm("p"), \.phones),
        ("contact_emails", "e", "address", dialect.emailTerm("e"), \.emails),
      ]
    for channel in channels {
      let (alias, column) = (channel.alias, channel.column)
      let join = dialect.join(
        rowsOf: channel.table, as: alias, whose: "contact_id", equals: "c.id",
        and: "\(alias).\(column) IS NOT NULL")
      try sql.forEach(
        ContactChannelRow.self,
        """
        SELECT \(literal: alias).contact_id, \(literal: alias).\(literal: column) AS channel, \(literal: channel.term) AS term
        FROM contacts c \(literal: join)
        WHERE \(filter)
        """
      ) { row in
        guard let at = index[row.contactID], let value = row.channel else { return }
        contacts[at][keyPath: channel.list].append(value)
        contacts[at].digest &+= row.term
      }
    }
    // A join's rows come in no fixed order (PostgreSQL's differ from run to run): sorted by
    // their bytes (canonically equal texts are not equal bytes), a contact reads the same
    // every time, and so does its fingerprint.
    let byBytes = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
    for at in contacts.indices {
      contacts[at].phones.sort(by: byBytes)
      contacts[at].emails.sort(by: byBytes)
    }
    return contacts
  }

  /// Live users with a verified `phone_e164` among `numbers`, by number (exact match: the
  /// online service stores E.164).
  func verifiedUsers(withPhones numbers: Set<String>) throws -> [String: [UserID]] {
    guard !numbers.isEmpty else { return [:] }
    var users: [String: [UserID]] = [:]
    try sql.forEach(
      VerifiedUserPhone.self,
      """
      SELECT \(columns: VerifiedUserPhone.Columns.self) FROM users
      WHERE phone_e164 IN (\(sql.dialect.textSet(numbers.sorted()))) AND phone_verified = 1 AND deleted_at IS NULL
      ORDER BY id
      """
    ) { row in
      guard let phone = row.phoneE164 else { return }
      users[phone, default: []].append(row.id)
    }
    return users
  }

  /// Cached lookups of `provider` for `keys`, expired ones included (the caller decides). A
  /// match whose check words are not the key's is another key's answer: left out, as if uncached.
  func lookups(provider: String, keys: Set<String>) throws -> [String: LookupRow] {
    var rows: [String: LookupRow] = [:]
    try forEachCachedRow(CachedLookup.self, provider: provider, keys: keys) { key, cacheKey, row in
      guard let response = row.response else {
        rows[key] = LookupRow(
          key: key, status: .noMatch, response: nil, fetchedAt: 0, expiresAt: row.expiresAt)
        return
      }
      guard cacheKey.isChecked(high: row.checkHigh, low: row.checkLow) else { return }
      rows[key] = LookupRow(
        key: key, status: .match, response: response, fetchedAt: row.fetchedAt, expiresAt: row.expiresAt)
    }
    return rows
  }

  /// Reads the cache rows of `keys` by the first word of their digest (one integer set bound
  /// as one parameter) and hands each row whose key is one of them to `body` with that key.
  private func forEachCachedRow<Row: CachedLookupRow>(
    _ type: Row.Type, provider: String, keys: some Collection<String>,
    _ body: (String, LookupCacheKey, Row) throws -> Void
  ) throws {
    guard !keys.isEmpty else { return }
    var byRowKey: [LookupCacheKey.RowKey: (String, LookupCacheKey)] = [:]
    byRowKey.reserveCapacity(keys.count)
    for key in keys {
      let cacheKey = LookupCacheKey(provider: provider, key: key)
      byRowKey[cacheKey.rowKey] = (key, cacheKey)
    }
    let highs = Set(byRowKey.keys.map(\.high)).sorted()
    try sql.forEach(
      type,
      """
      SELECT \(columns: Row.Columns.self) FROM enrichment_lookups
      WHERE \(sql.dialect.isIn("key_high", subquery: sql.dialect.integerSet(highs)))
      """
    ) { row in
      guard let wanted = byRowKey[row.rowKey] else { return }
      try body(wanted.0, wanted.1, row)
    }
  }

  /// The `contact_enrichments` rows of these contacts: one probe of the key per contact, so
  /// that a night reads the rows of the contacts it checks, not of their owners' whole books.
  func storedEnrichments(ofContacts contactIDs: [ContactID]) throws -> [StoredEnrichment] {
    guard !contactIDs.isEmpty else { return [] }
    let dialect = sql.dialect
    return try sql.rows(
      StoredEnrichment.self,
      """
      SELECT \(columns: StoredEnrichment.Columns.self) FROM contact_enrichments
      WHERE \(dialect.isIn("contact_id", subquery: dialect.integerSet(contactIDs)))
      """)
  }

  /// `expires_at` of the cached lookups of `provider` for `keys`, expired ones included: what
  /// deciding which keys to ask for needs, without the responses (on PostgreSQL from the key's
  /// index alone).
  func lookupExpiries(provider: String, keys: [String]) throws -> [String: UTCInstant] {
    var expiries: [String: UTCInstant] = [:]
    try forEachCachedRow(CachedExpiry.self, provider: provider, keys: keys) { key, _, row in
      expiries[key] = row.expiresAt
    }
    return expiries
  }
}

/// A phone number or an email address of a contact, as typed, with its term of the contact's
/// digest (`dialect.phoneTerm`, `emailTerm`: a hash, never null for a text that is not).
private struct ContactChannelRow: DecodableRow {
  enum Columns: Int, RowColumns { case contactID, channel, term }
  static let table = "contact channels"
  let contactID: ContactID
  let channel: String?
  let term: Int64

  init(_ row: RowDecoder<Columns>) throws {
    contactID = row.key(.contactID)
    channel = row.textIfPresent(.channel)
    term = row.integerDeclaredNotNull(.term)
  }
}

/// A row of `enrichment_lookups`, found by its key's two words.
private protocol CachedLookupRow: DecodableRow {
  var rowKey: LookupCacheKey.RowKey { get }
}

/// A cached answer: a match has its fetch time, check words and response; a no-match none.
private struct CachedLookup: CachedLookupRow {
  enum Columns: Int, RowColumns { case keyHigh, keyLow, expiresAt, fetchedAt, checkHigh, checkLow, response }
  static let table = "enrichment_lookups"
  let rowKey: LookupCacheKey.RowKey
  let expiresAt: UTCInstant
  /// A match's; 0 for a no-match, whose answer has no fetch time of its own.
  let fetchedAt: UTCInstant
  let checkHigh: Int64?
  let checkLow: Int64?
  let response: String?

  init(_ row: RowDecoder<Columns>) throws {
    rowKey = LookupCacheKey.RowKey(high: row.key(.keyHigh), low: row.key(.keyLow))
    expiresAt = try row.instant(.expiresAt)
    response = row.textIfPresent(.response)
    // `putLookups` writes a match's fetch time with its response.
    fetchedAt = response == nil ? 0 : try row.instant(.fetchedAt)
    checkHigh = try row.integerIfPresent(.checkHigh)
    checkLow = try row.integerIfPresent(.checkLow)
  }
}

/// A cached answer's expiry alone.
private struct CachedExpiry: CachedLookupRow {
  enum Columns: Int, RowColumns { case keyHigh, keyLow, expiresAt }
  static let table = "enrichment_lookups"
  let rowKey: LookupCacheKey.RowKey
  let expiresAt: UTCInstant

  init(_ row: RowDecoder<Columns>) throws {
    rowKey = LookupCacheKey.RowKey(high: row.key(.keyHigh), low: row.key(.keyLow))
    expiresAt = try row.instant(.expiresAt)
  }
}

extension EnrichmentContactRow: DecodableRow {
  enum Columns: Int, RowColumns { case id, userID, ownerRegion, editedFields, rinUserID, digest, stamp }
  static let table = "contacts"

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    userID = row.key(.userID)
    ownerRegion = row.textIfPresent(.ownerRegion)
    editedFields = row.textIfPresent(.editedFields)
    rinUserID = row.integerIfValid(.rinUserID)
    // The contact's own term is a hash, never null (`dialect.contactTerm`).
    digest = row.integerDeclaredNotNull(.digest)
    stamp = row.changeStamp(.stamp)
  }
}

extension StoredEnrichment: DecodableRow {
  enum Columns: Int, RowColumns { case contactID, field, source, value, confidence }
  static let table = "contact_enrichments"

  init(_ row: RowDecoder<Columns>) throws {
    contactID = row.key(.contactID)
    field = try row.text(.field)
    source = try row.text(.source)
    value = row.textIfPresent(.value)
    confidence = row.doubleIfValid(.confidence)
  }
}
