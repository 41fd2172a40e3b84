import RinDomain

/// One text value of a live contact (a phone as typed, an address, a family name).
public struct ContactValueRow: Sendable, Equatable {
  public var userID: Int64
  public var contactID: Int64
  public var value: String?
  /// The row's term of its contact's digest (`ContactDigest`), computed by the database.
  public var digestTerm: Int64 = 0
  /// The contact's change stamp (`max(created_at, updated_at, deleted_at)`), on the rows of
  /// `forEachLiveContactFamilyName`.
  public var stamp: Int64?
}

/// circle-patterns reads eight grouped queries per batch of users, whatever its size.
extension CirclePatternsQueries {
  private static let patternCircle = "k.deleted_at IS NULL AND k.kind IN ('prepopulated', 'custom')"

  /// `users.region` as stored (nil when null).
  public func userRegions(of ids: [Int64]) throws -> [Int64: String] {
    var regions: [Int64: String] = [:]
    let owners = OwnerSet(ids)
    try sql.forEachRow(
      "SELECT id, region FROM users WHERE \(owners.condition(on: "id"))"
    ) { row in
      if let user = row.int64(0), owners.includes(user), let region = row.text(1) { regions[user] = region }
    }
    return regions
  }

  /// Live circles of kind `prepopulated` or `custom`, ascending ids per user.
  public func patternCircles(of ids: [Int64]) throws -> [Int64: [Int64]] {
    var circles: [Int64: [Int64]] = [:]
    try sql.forEachRow(
      "SELECT k.id, k.user_id FROM circles k WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle) ORDER BY k.id"
    ) { row in
      if let id = row.int64(0), let user = row.int64(1) { circles[user, default: []].append(id) }
    }
    return circles
  }

  /// Members of the users' pattern circles that are live contacts of the circle's owner.
  public func forEachLiveCircleMember(
    of ids: [Int64], _ body: (_ circleID: Int64, _ contactID: Int64) throws -> Void
  )
    throws
  {
    // The member's contact by its key too: joined plainly, PostgreSQL read all the owner's
    // contacts for each circle and hashed them against its members.
    try sql.forEachRow(
      """
      SELECT m.circle_id, m.contact_id FROM circles k
      \(literal: sql.dialect.join(rowsOf: "circle_members", as: "m", whose: "circle_id", equals: "k.id"))
      \(literal: sql.dialect.join(
        rowsOf: "contacts", as: "c", whose: "id", equals: "m.contact_id",
        and: "c.user_id = k.user_id AND c.deleted_at IS NULL"))
      WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle)
      """
    ) { row in
      if let circle = row.int64(0), let contact = row.int64(1) { try body(circle, contact) }
    }
  }

  /// Contacts the user took out of one of their pattern circles.
  public func forEachCircleRemoval(
    of ids: [Int64], _ body: (_ circleID: Int64, _ contactID: Int64) throws -> Void
  )
    throws
  {
    try sql.forEachRow(
      """
      SELECT r.circle_id, r.contact_id FROM circles k
      \(literal: sql.dialect.join(rowsOf: "circle_removals", as: "r", whose: "circle_id", equals: "k.id"))
      WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle)
      """
    ) { row in
      if let circle = row.int64(0), let contact = row.int64(1) { try body(circle, contact) }
    }
  }

  /// Every live contact of the users, with its family name.
  public func forEachLiveContactFamilyName(of ids: [Int64], _ body: (ContactValueRow) throws -> Void) throws {
    let dialect = sql.dialect
    try forEachContactValue(
      """
      SELECT c.user_id, c.id, c.family_name, \(literal: dialect.contactTerm(of: .circlePatterns, "c")),
        \(literal: dialect.contactChangeStamp("c"))
      FROM contacts c WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, withStamp: true, body)
  }

  /// Every phone row of the users' live contacts, as typed.
  public func forEachLiveContactPhone(of ids: [Int64], _ body: (ContactValueRow) throws -> Void) throws {
    try forEachContactValue(
      """
      SELECT c.user_id, p.contact_id, p.raw, \(literal: sql.dialect.phoneTerm("p")) FROM contacts c
      \(literal: sql.dialect.join(rowsOf: "contact_phones", as: "p", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, body)
  }

  /// Every email row of the users' live contacts, as typed.
  public func forEachLiveContactEmail(of ids: [Int64], _ body: (ContactValueRow) throws -> Void) throws {
    try forEachContactValue(
      """
      SELECT c.user_id, e.contact_id, e.address, \(literal: sql.dialect.emailTerm("e")) FROM contacts c
      \(literal: sql.dialect.join(rowsOf: "contact_emails", as: "e", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, body)
  }

  private func forEachContactValue(
    _ query: SQLFragment, withStamp: Bool = false, _ body: (ContactValueRow) throws -> Void
  ) throws {
    try sql.forEachRow(query) { row in
      guard let user = row.int64(0), let contact = row.int64(1) else { return }
      try body(
        ContactValueRow(
          userID: user, contactID: contact, value: row.text(2), digestTerm: row.int64(3) ?? 0,
          stamp: withStamp ? row.int64(4) : nil))
    }
  }

  /// Every stored suggestion of the users, in any status.
  public func circleSuggestions(of ids: [Int64]) throws -> [Int64: [ExistingCircleSuggestion]] {
    var stored: [Int64: [ExistingCircleSuggestion]] = [:]
    try sql.forEachRow(
      """
      SELECT user_id, id, circle_id, pattern, pattern_value, fingerprint, status FROM circle_suggestions
      WHERE user_id IN (\(SQLDialect.list(ids)))
      """
    ) { row in
      guard let user = row.int64(0), let id = row.int64(1) else { return }
      stored[user, default: []].append(
        ExistingCircleSuggestion(
          id: id, circleID: row.int64(2) ?? 0, pattern: row.text(3) ?? "", patternValue: row.text(4) ?? "",
          fingerprint: row.text(5) ?? "", status: row.text(6) ?? ""))
    }
    return stored
  }

  /// Inserts `group` as an `open` suggestion unless its fingerprint is stored already; true when new.
  @discardableResult
  public func insertCircleSuggestion(_ group: CircleGroup, userID: Int64, at instant: UTCInstant) throws
    -> Bool
  {
    let inserted = try sql.execute(
      """
      INSERT INTO circle_suggestions (user_id, circle_id, pattern, pattern_value, contact_ids, confidence,
        fingerprint, status, created_at) VALUES (\(.integer(userID)), \(.integer(group.circleID)), \(.text(group.pattern.rawValue)), \(.text(group.value)), \(.text(group.contactList)), \(.real(group.confidence)), \(.text(group.fingerprint)), 'open', \(.instant(instant)))
      ON CONFLICT (user_id, fingerprint) DO NOTHING
      """)
    if inserted > 0 {
      changes.record(
        "circle_suggestions", .insert,
        sample:
          "user \(userID) circle \(group.circleID): \(group.pattern.rawValue), \(group.contactIDs.count) contacts"
      )
    }
    return inserted > 0
  }

  /// Marks an `open` suggestion `superseded` and remembers when (history-retention deletes it
  /// once that is older than its window); true when it was still open.
  @discardableResult
  public func supersedeCircleSuggestion(id: Int64, at instant: UTCInstant) throws -> Bool {
    let updated = try sql.execute(
      "UPDATE circle_suggestions SET status = 'superseded' WHERE id = \(.integer(id)) AND status = 'open'")
    guard updated > 0 else { return false }
    changes.record("circle_suggestions", .update, sample: "suggestion \(id): superseded")
    try sql.execute(
      """
      INSERT INTO circle_suggestion_supersessions (suggestion_id, superseded_at) VALUES (\(.integer(id)), \(.instant(instant)))
      ON CONFLICT (suggestion_id) DO UPDATE SET superseded_at = excluded.superseded_at
      """)
    return true
  }
}
