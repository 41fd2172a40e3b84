import RinDomain

extension EnrichmentQueries {
  /// The batch's live contacts (ascending id) with their phones and emails (each sorted):
  /// three queries whatever the batch size. With `stampedAfter`, only those whose change stamp
  /// is later (the stamp tested on the owner's entries of `contacts_for_score_by_user`, the
  /// contact's row read only for those that pass).
  public func enrichmentContacts(of userIDs: [Int64], stampedAfter: Int64? = nil) throws
    -> [EnrichmentContactRow]
  {
    guard !userIDs.isEmpty else { return [] }
    let stamped: SQLFragment =
      stampedAfter.map { " AND \(literal: sql.dialect.contactChangeStamp("c")) > \($0)" } ?? ""
    return try enrichmentContacts(where: "c.user_id IN (\(SQLDialect.list(userIDs)))\(stamped)")
  }

  /// These contacts, those live (ascending id), with their phones and emails, by key.
  public func enrichmentContacts(ids contactIDs: [Int64]) throws -> [EnrichmentContactRow] {
    guard !contactIDs.isEmpty else { return [] }
    return try enrichmentContacts(
      where: sql.dialect.isIn("c.id", subquery: sql.dialect.integerSet(contactIDs)))
  }

  /// These contacts, deleted ones too, with their phones and emails: what erasure hashes to
  /// find a deleted contact's cached answers (docs/OPERATIONS.md "Erasure").
  public func channelsOfContacts(ids contactIDs: [Int64]) throws -> [EnrichmentContactRow] {
    guard !contactIDs.isEmpty else { return [] }
    return try enrichmentContacts(
      where: sql.dialect.isIn("c.id", subquery: sql.dialect.integerSet(contactIDs)), liveOnly: false)
  }

  /// Every contact of these owners, deleted ones too, with their phones and emails.
  public func channelsOfContacts(ofOwners userIDs: [Int64]) throws -> [EnrichmentContactRow] {
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
    var index: [Int64: Int] = [:]
    try sql.forEachRow(
      """
      SELECT c.id, c.user_id, u.region, c.edited_fields, c.rin_user_id,
        \(literal: dialect.contactTerm(of: .enrichmentFetch, "c")), \(literal: dialect.contactChangeStamp("c"))
      FROM contacts c JOIN users u ON u.id = c.user_id
      WHERE \(filter) ORDER BY c.id
      """
    ) { row in
      guard let id = row.int64(0), let user = row.int64(1) else { return }
      index[id] = contacts.count
      var contact = EnrichmentContactRow(
        id: id, userID: user, ownerRegion: row.text(2), editedFields: row.text(3), rinUserID: row.int64(4))
      contact.digest = row.int64(5) ?? 0
      contact.stamp = row.int64(6) ?? 0
      contacts.append(contact)
    }
    let phones = dialect.join(
      rowsOf: "contact_phones", as: "p", whose: "contact_id", equals: "c.id", and: "p.raw IS NOT NULL")
    try sql.forEachRow(
      """
      SELECT p.contact_id, p.raw, \(literal: dialect.phoneTerm("p")) FROM contacts c \(literal: phones)
      WHERE \(filter)
      """
    ) { row in
      guard let id = row.int64(0), let at = index[id], let raw = row.text(1) else { return }
      contacts[at].phones.append(raw)
      contacts[at].digest &+= row.int64(2) ?? 0
    }
    let emails = dialect.join(
      rowsOf: "contact_emails", as: "e", whose: "contact_id", equals: "c.id", and: "e.address IS NOT NULL")
    try sql.forEachRow(
      """
      SELECT e.contact_id, e.address, \(literal: dialect.emailTerm("e")) FROM contacts c \(literal: emails)
      WHERE \(filter)
      """
    ) { row in
      guard let id = row.int64(0), let at = index[id], let address = row.text(1) else { return }
      contacts[at].emails.append(address)
      contacts[at].digest &+= row.int64(2) ?? 0
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
  public func verifiedUsers(withPhones numbers: Set<String>) throws -> [String: [Int64]] {
    guard !numbers.isEmpty else { return [:] }
    var users: [String: [Int64]] = [:]
    try sql.forEachRow(
      """
      SELECT phone_e164, id FROM users
      WHERE phone_e164 IN (\(sql.dialect.textSet(numbers.sorted()))) AND phone_verified = 1 AND deleted_at IS NULL
      ORDER BY id
      """
    ) { row in
      guard let phone = row.text(0), let id = row.int64(1) else { return }
      users[phone, default: []].append(id)
    }
    return users
  }

  /// Cached lookups of `provider` for `keys`, expired ones included (the caller decides). A
  /// match whose check words are not the key's is another key's answer: left out, as if uncached.
  public func lookups(provider: String, keys: Set<String>) throws -> [String: LookupRow] {
    var rows: [String: LookupRow] = [:]
    try forEachCachedRow(
      provider: provider, keys: keys,
      columns: "expires_at, fetched_at, check_high, check_low, response"
    ) { key, cacheKey, row in
      let expiresAt = row.instant(2) ?? 0
      guard let response = row.text(6) else {
        rows[key] = LookupRow(key: key, status: .noMatch, response: nil, fetchedAt: 0, expiresAt: expiresAt)
        return
      }
      guard cacheKey.isChecked(high: row.int64(4), low: row.int64(5)) else { return }
      rows[key] = LookupRow(
        key: key, status: .match, response: response, fetchedAt: row.instant(3) ?? 0, expiresAt: expiresAt)
    }
    return rows
  }

  /// Reads the cache rows of `keys` by the first word of their digest (one integer set bound
  /// as one parameter) and hands each row whose key is one of them to `body` with that key;
  /// `columns` come after `key_high, key_low`.
  func forEachCachedRow(
    provider: String, keys: some Collection<String>, columns: String,
    _ body: (String, LookupCacheKey, any SQLRowReader) throws -> Void
  ) throws {
    guard !keys.isEmpty else { return }
    var byRowKey: [LookupCacheKey.RowKey: (String, LookupCacheKey)] = [:]
    byRowKey.reserveCapacity(keys.count)
    for key in keys {
      let cacheKey = LookupCacheKey(provider: provider, key: key)
      byRowKey[cacheKey.rowKey] = (key, cacheKey)
    }
    let highs = Set(byRowKey.keys.map(\.high)).sorted()
    try sql.forEachRow(
      """
      SELECT key_high, key_low, \(literal: columns) FROM enrichment_lookups
      WHERE \(sql.dialect.isIn("key_high", subquery: sql.dialect.integerSet(highs)))
      """
    ) { row in
      guard let high = row.int64(0), let low = row.int64(1),
        let wanted = byRowKey[LookupCacheKey.RowKey(high: high, low: low)]
      else { return }
      try body(wanted.0, wanted.1, row)
    }
  }

  /// The `contact_enrichments` rows of these contacts: one probe of the key per contact, so
  /// that a night reads the rows of the contacts it checks, not of their owners' whole books.
  public func storedEnrichments(ofContacts contactIDs: [Int64]) throws -> [StoredEnrichment] {
    var rows: [StoredEnrichment] = []
    guard !contactIDs.isEmpty else { return rows }
    let dialect = sql.dialect
    try sql.forEachRow(
      """
      SELECT contact_id, field, source, value, confidence FROM contact_enrichments
      WHERE \(dialect.isIn("contact_id", subquery: dialect.integerSet(contactIDs)))
      """
    ) { row in
      guard let contact = row.int64(0), let field = row.text(1), let source = row.text(2) else { return }
      rows.append(
        StoredEnrichment(
          contactID: contact, field: field, source: source, value: row.text(3), confidence: row.double(4)))
    }
    return rows
  }
}

extension EnrichmentQueries {
  /// `expires_at` of the cached lookups of `provider` for `keys`, expired ones included: what
  /// deciding which keys to ask for needs, without the responses (on PostgreSQL from the key's
  /// index alone).
  public func lookupExpiries(provider: String, keys: [String]) throws -> [String: UTCInstant] {
    var expiries: [String: UTCInstant] = [:]
    try forEachCachedRow(provider: provider, keys: keys, columns: "expires_at") { key, _, row in
      expiries[key] = row.instant(2) ?? 0
    }
    return expiries
  }
}
