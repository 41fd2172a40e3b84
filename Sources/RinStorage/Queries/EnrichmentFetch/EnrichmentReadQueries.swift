import RinDomain

extension EnrichmentQueries {
  /// The batch's live contacts (ascending id) with their phones and emails (each sorted):
  /// three queries whatever the batch size. With `stampedAfter`, only those whose change stamp
  /// is later (through the index of contacts by owner and change stamp).
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

  /// The live contacts `filter` (over `c`) selects.
  private func enrichmentContacts(where filter: SQLFragment) throws -> [EnrichmentContactRow] {
    let dialect = sql.dialect
    var contacts: [EnrichmentContactRow] = []
    var index: [Int64: Int] = [:]
    try sql.forEachRow(
      """
      SELECT c.id, c.user_id, u.region, c.edited_fields, c.rin_user_id,
        \(literal: dialect.contactTerm(of: .enrichmentFetch, "c")), \(literal: dialect.contactChangeStamp("c"))
      FROM contacts c JOIN users u ON u.id = c.user_id
      WHERE \(filter) AND c.deleted_at IS NULL ORDER BY c.id
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
      WHERE \(filter) AND c.deleted_at IS NULL
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
      WHERE \(filter) AND c.deleted_at IS NULL
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

  /// Cached lookups of `provider` for `keys`, expired ones included (the caller decides).
  public func lookups(provider: String, keys: Set<String>) throws -> [String: LookupRow] {
    guard !keys.isEmpty else { return [:] }
    var rows: [String: LookupRow] = [:]
    try sql.forEachRow(
      """
      SELECT lookup_key, status, response, fetched_at, expires_at FROM enrichment_lookups
      WHERE provider = \(.text(provider)) AND lookup_key IN (\(sql.dialect.textSet(keys.sorted())))
      """
    ) { row in
      guard let key = row.text(0), let status = row.text(1).flatMap(LookupRow.Status.init(rawValue:)) else {
        return
      }
      rows[key] = LookupRow(
        key: key, status: status, response: row.text(2), fetchedAt: row.instant(3) ?? 0,
        expiresAt: row.instant(4) ?? 0)
    }
    return rows
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
  /// deciding which keys to ask for needs, without the responses.
  public func lookupExpiries(provider: String, keys: [String]) throws -> [String: UTCInstant] {
    guard !keys.isEmpty else { return [:] }
    var expiries: [String: UTCInstant] = [:]
    try sql.forEachRow(
      """
      SELECT lookup_key, expires_at FROM enrichment_lookups
      WHERE provider = \(.text(provider)) AND lookup_key IN (\(sql.dialect.textSet(keys)))
      """
    ) { row in
      if let key = row.text(0) { expiries[key] = row.instant(1) ?? 0 }
    }
    return expiries
  }
}
