import RinDomain
import RinStorage

/// One text value of a live contact (a phone as typed, an address), with its term of its
/// contact's digest.
struct ContactValueRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, contactID, value, digestTerm }
  static let table = "contacts"
  let userID: UserID
  let contactID: ContactID
  /// As the services wrote it: nil for NULL.
  let value: String?
  /// The row's term of its contact's digest (`ContactDigest`), computed by the database.
  let digestTerm: Int64

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    contactID = row.key(.contactID)
    value = row.textIfPresent(.value)
    digestTerm = try row.integer(.digestTerm)
  }
}

/// A live contact's family name, its own term of its digest and its change stamp.
struct ContactFamilyNameRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, contactID, value, digestTerm, stamp }
  static let table = "contacts"
  let userID: UserID
  let contactID: ContactID
  let value: String?
  let digestTerm: Int64
  /// `max(created_at, updated_at, deleted_at)`; nil where the services' times are not numbers.
  let stamp: Int64

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    contactID = row.key(.contactID)
    value = row.textIfPresent(.value)
    digestTerm = try row.integer(.digestTerm)
    stamp = row.changeStamp(.stamp)
  }
}

/// circle-patterns reads eight grouped queries per batch of users, whatever its size.
extension CirclePatternsQueries {
  private static let patternCircle = "k.deleted_at IS NULL AND k.kind IN ('prepopulated', 'custom')"

  /// Live circles of kind `prepopulated` or `custom`, ascending ids per user.
  func patternCircles(of ids: [UserID]) throws -> [UserID: [Int64]] {
    var circles: [UserID: [Int64]] = [:]
    try tx.sql.forEach(
      PatternCircle.self,
      """
      SELECT \(columns: PatternCircle.Columns.self, from: "k") FROM circles k
      WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle) ORDER BY k.id
      """
    ) { circles[$0.userID, default: []].append($0.id) }
    return circles
  }

  /// Members of the users' pattern circles that are live contacts of the circle's owner.
  func forEachLiveCircleMember(
    of ids: [UserID], _ body: (_ circleID: Int64, _ contactID: ContactID) throws -> Void
  )
    throws
  {
    let dialect = tx.sql.dialect
    // The member's contact by its key too: joined plainly, PostgreSQL read all the owner's
    // contacts for each circle and hashed them against its members.
    try tx.sql.forEach(
      CircleContact.self,
      """
      SELECT \(columns: CircleContact.Columns.self, from: "m") FROM circles k
      \(literal: dialect.join(rowsOf: "circle_members", as: "m", whose: "circle_id", equals: "k.id"))
      \(literal: dialect.join(
        rowsOf: "contacts", as: "c", whose: "id", equals: "m.contact_id",
        and: "c.user_id = k.user_id AND c.deleted_at IS NULL"))
      WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle)
      """
    ) { try body($0.circleID, $0.contactID) }
  }

  /// Contacts the user took out of one of their pattern circles.
  func forEachCircleRemoval(
    of ids: [UserID], _ body: (_ circleID: Int64, _ contactID: ContactID) throws -> Void
  )
    throws
  {
    try tx.sql.forEach(
      CircleContact.self,
      """
      SELECT \(columns: CircleContact.Columns.self, from: "r") FROM circles k
      \(literal: tx.sql.dialect.join(rowsOf: "circle_removals", as: "r", whose: "circle_id", equals: "k.id"))
      WHERE k.user_id IN (\(SQLDialect.list(ids))) AND \(literal: Self.patternCircle)
      """
    ) { try body($0.circleID, $0.contactID) }
  }

  /// Every live contact of the users, with its family name. A term SQLite's hash gives no value
  /// for (a family name the services stored as a blob) counts 0.
  func forEachLiveContactFamilyName(of ids: [UserID], _ body: (ContactFamilyNameRow) throws -> Void) throws {
    let dialect = tx.sql.dialect
    try tx.sql.forEach(
      ContactFamilyNameRow.self,
      """
      SELECT c.user_id, c.id AS contact_id, c.family_name AS value,
        coalesce(\(literal: dialect.contactTerm(of: .circlePatterns, "c")), 0) AS digest_term,
        \(literal: dialect.contactChangeStamp("c")) AS stamp
      FROM contacts c WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, body)
  }

  /// Every phone row of the users' live contacts, as typed. A NULL number has no term: it
  /// counts 0 in the digest, as in the periodic pass's sum.
  func forEachLiveContactPhone(of ids: [UserID], _ body: (ContactValueRow) throws -> Void) throws {
    let dialect = tx.sql.dialect
    try tx.sql.forEach(
      ContactValueRow.self,
      """
      SELECT c.user_id, p.contact_id, p.raw AS value, coalesce(\(literal: dialect.phoneTerm("p")), 0) AS digest_term
      FROM contacts c
      \(literal: dialect.join(rowsOf: "contact_phones", as: "p", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, body)
  }

  /// Every email row of the users' live contacts, as typed (a NULL address counts 0, as a
  /// NULL number does).
  func forEachLiveContactEmail(of ids: [UserID], _ body: (ContactValueRow) throws -> Void) throws {
    let dialect = tx.sql.dialect
    try tx.sql.forEach(
      ContactValueRow.self,
      """
      SELECT c.user_id, e.contact_id, e.address AS value, coalesce(\(literal: dialect.emailTerm("e")), 0) AS digest_term
      FROM contacts c
      \(literal: dialect.join(rowsOf: "contact_emails", as: "e", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(ids))) AND c.deleted_at IS NULL
      """, body)
  }

  /// Every stored suggestion of the users, in any status.
  func circleSuggestions(of ids: [UserID]) throws -> [UserID: [ExistingCircleSuggestion]] {
    var stored: [UserID: [ExistingCircleSuggestion]] = [:]
    try tx.sql.forEach(
      StoredCircleSuggestion.self,
      """
      SELECT \(columns: StoredCircleSuggestion.Columns.self) FROM circle_suggestions
      WHERE user_id IN (\(SQLDialect.list(ids)))
      """
    ) { stored[$0.userID, default: []].append($0.suggestion) }
    return stored
  }

  /// Inserts `group` as an `open` suggestion unless its fingerprint is stored already; true when new.
  @discardableResult
  func insertCircleSuggestion(_ group: CircleGroup, userID: UserID, at instant: UTCInstant) throws -> Bool {
    let inserted = try Self.suggestionInsert.execute(
      rows: [NewCircleSuggestion(userID: userID, group: group, createdAt: instant)], on: tx.sql)
    if inserted > 0 {
      tx.changes.record(
        "circle_suggestions", .insert,
        sample:
          "user \(userID) circle \(group.circleID): \(group.pattern.rawValue), \(group.contactIDs.count) contacts"
      )
    }
    return inserted > 0
  }

  private static let suggestionInsert = MultiRowStatement(
    inserting: NewCircleSuggestion.self, tail: "ON CONFLICT (user_id, fingerprint) DO NOTHING")

  /// Marks an `open` suggestion `superseded` and remembers when (history-retention deletes it
  /// once that is older than its window); true when it was still open.
  @discardableResult
  func supersedeCircleSuggestion(id: Int64, at instant: UTCInstant) throws -> Bool {
    let updated = try tx.sql.execute(
      "UPDATE circle_suggestions SET status = 'superseded' WHERE id = \(.integer(id)) AND status = 'open'")
    guard updated > 0 else { return false }
    tx.changes.record("circle_suggestions", .update, sample: "suggestion \(id): superseded")
    try Self.supersessionUpsert.execute(
      rows: [Supersession(suggestionID: id, supersededAt: instant)], on: tx.sql)
    return true
  }

  private static let supersessionUpsert = MultiRowStatement(
    inserting: Supersession.self,
    tail: "ON CONFLICT (suggestion_id) DO UPDATE SET superseded_at = excluded.superseded_at")
}

/// A pattern circle and its owner.
private struct PatternCircle: DecodableRow {
  enum Columns: Int, RowColumns { case id, userID }
  static let table = "circles"
  let id: Int64
  let userID: UserID

  init(_ row: RowDecoder<Columns>) {
    id = row.key(.id)
    userID = row.key(.userID)
  }
}

/// A contact in (`circle_members`) or taken out of (`circle_removals`) a circle.
private struct CircleContact: DecodableRow {
  enum Columns: Int, RowColumns { case circleID, contactID }
  static let table = "circle members"
  let circleID: Int64
  let contactID: ContactID

  init(_ row: RowDecoder<Columns>) {
    circleID = row.key(.circleID)
    contactID = row.key(.contactID)
  }
}

/// A stored suggestion, as the reconciler compares it.
private struct StoredCircleSuggestion: DecodableRow {
  enum Columns: Int, RowColumns { case userID, id, circleID, pattern, patternValue, fingerprint, status }
  static let table = "circle_suggestions"
  let userID: UserID
  let suggestion: ExistingCircleSuggestion

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    suggestion = ExistingCircleSuggestion(
      id: row.key(.id), circleID: try row.integer(.circleID), pattern: try row.text(.pattern),
      patternValue: try row.text(.patternValue), fingerprint: try row.text(.fingerprint),
      status: try row.text(.status))
  }
}

/// A group written as a new `open` suggestion.
private struct NewCircleSuggestion: EncodableRow {
  enum Columns: Int, RowColumns {
    case userID, circleID, pattern, patternValue, contactIDs, confidence, fingerprint, status, createdAt
  }
  static let table = "circle_suggestions"
  let userID: UserID
  let group: CircleGroup
  let createdAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.circleID] = .integer(group.circleID)
    row[.pattern] = .text(group.pattern.rawValue)
    row[.patternValue] = .text(group.value)
    row[.contactIDs] = .text(group.contactList)
    row[.confidence] = .real(group.confidence)
    row[.fingerprint] = .text(group.fingerprint)
    row[.status] = .text(CircleSuggestionStatus.open.rawValue)
    row[.createdAt] = .instant(createdAt)
  }
}

/// When a suggestion was superseded, which its retention window runs from.
private struct Supersession: EncodableRow {
  enum Columns: Int, RowColumns { case suggestionID, supersededAt }
  static let table = "circle_suggestion_supersessions"
  let suggestionID: Int64
  let supersededAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.suggestionID] = .integer(suggestionID)
    row[.supersededAt] = .instant(supersededAt)
  }
}
