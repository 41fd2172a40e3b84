import RinDomain
import RinStorage

extension EnrichmentQueries {
  /// Every live contact of these owners, with its change stamp and its stored check (nil when
  /// it has none): one probe of `contact_states` per contact.
  func enrichmentChecks(of userIDs: [UserID]) throws -> [LiveContactCheck] {
    try enrichmentChecks(where: "c.user_id IN (\(SQLDialect.list(userIDs)))")
  }

  /// These contacts, those of them still live, with their change stamps and stored checks.
  func enrichmentChecks(ids: [ContactID]) throws -> [LiveContactCheck] {
    guard !ids.isEmpty else { return [] }
    return try enrichmentChecks(where: "c.id IN (\(SQLDialect.list(ids)))")
  }

  private func enrichmentChecks(where condition: SQLFragment) throws -> [LiveContactCheck] {
    var checks: [LiveContactCheck] = []
    let dialect = sql.dialect
    try sql.forEach(
      LiveContactCheck.self,
      """
      SELECT c.id AS contact_id, c.user_id, \(literal: dialect.contactChangeStamp("c")) AS stamp,
        \(columns: StoredCheckColumns.self, from: "k")
      FROM contacts c
      \(literal: dialect.join(rowsOf: "contact_states", as: "k", whose: "contact_id", equals: "c.id", keepingUnmatched: true))
      WHERE \(condition) AND c.deleted_at IS NULL
      """
    ) { checks.append($0) }
    return checks
  }

  /// Records what an examination of these contacts found: the checks made and the digests read
  /// (`PeriodicContactPass`), each contact's in one write of its row of `contact_states`, the
  /// other job's columns left as they are. One write, not one per kind: on PostgreSQL every
  /// write of a row leaves a version of it behind until vacuum, and a first night would leave
  /// several. Bookkeeping, like a checkpoint: not reported as a change of the data contract.
  func saveEnrichmentState(
    checks: [(contactID: ContactID, userID: UserID, check: EnrichmentCheck)], digests: [ContactDigest]
  ) throws {
    var rows: [ContactID: EnrichmentStateRow] = [:]
    for (contact, user, check) in checks {
      rows[contact] = EnrichmentStateRow(contactID: contact, userID: user, check: check)
    }
    for digest in digests {
      rows[digest.contactID, default: EnrichmentStateRow(contactID: digest.contactID, userID: digest.userID)]
        .enrichmentDigest = digest.digest
    }
    try Self.enrichmentStateUpsert.execute(rows: rows.values.sorted { $0.contactID < $1.contactID }, on: sql)
  }

  /// A null digest or check fingerprint means "not written this time": the stored one stays
  /// (a written check always has a fingerprint, a written digest a value).
  private static let enrichmentStateUpsert = MultiRowStatement(
    inserting: EnrichmentStateRow.self,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id,
        enrichment_digest = coalesce(excluded.enrichment_digest, contact_states.enrichment_digest),
        \(keptUnlessWritten(StoredCheckColumns.names, marker: StoredCheckColumns.checkFingerprint.name))
      """)

  /// Every live user with a verified number (E.164), streamed to `body`.
  func forEachVerifiedUserPhone(_ body: (_ userID: UserID, _ phone: String) -> Void) throws {
    try sql.forEach(
      VerifiedUserPhone.self,
      """
      SELECT \(columns: VerifiedUserPhone.Columns.self) FROM users
      WHERE phone_verified = 1 AND deleted_at IS NULL AND phone_e164 IS NOT NULL
      """
    ) { row in
      if let phone = row.phoneE164 { body(row.id, phone) }
    }
  }

  /// Every user deleted after `instant` who had verified a number, with the number and the
  /// deletion's time.
  func forEachDepartedVerifiedUser(
    deletedAfter instant: UTCInstant,
    _ body: (_ userID: UserID, _ phone: String, _ deletedAt: UTCInstant) -> Void
  ) throws {
    try sql.forEach(
      DepartedVerifiedUser.self,
      """
      SELECT \(columns: DepartedVerifiedUser.Columns.self) FROM users
      WHERE phone_verified = 1 AND deleted_at > \(instant) AND phone_e164 IS NOT NULL
      """
    ) { row in
      if let phone = row.phoneE164, let deletedAt = row.deletedAt {
        body(row.id, phone, deletedAt)
      }
    }
  }

  /// The buckets of each owner's contacts' numbers as last stored (`enrichment_owner_buckets`,
  /// one row per owner), and the contacts in those that held a verified user, by owner.
  func enrichmentOwnerBuckets(of userIDs: [UserID]) throws -> [UserID: StoredOwnerBuckets] {
    var found: [UserID: StoredOwnerBuckets] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEach(
      OwnerBucketsRow.self,
      """
      SELECT \(columns: OwnerBucketsRow.Columns.self) FROM enrichment_owner_buckets
      WHERE \(owners.condition(on: "user_id"))
      """
    ) { row in
      guard owners.includes(row.userID) else { return }
      found[row.userID] = row.stored
    }
    return found
  }

  /// Stores the buckets of these owners' contacts' numbers and the contacts in those that hold
  /// a verified user, replacing what was stored.
  func saveEnrichmentOwnerBuckets(_ buckets: [UserID: Set<Int64>], occupied: [UserID: OccupiedBuckets])
    throws
  {
    try Self.ownerBucketUpsert.execute(
      rows: buckets.sorted { $0.key < $1.key }.map { owner, buckets in
        OwnerBucketsRow(userID: owner, buckets: buckets.sorted(), occupied: occupied[owner])
      }, on: sql)
  }

  private static let ownerBucketUpsert = MultiRowStatement(
    inserting: OwnerBucketsRow.self,
    tail: "ON CONFLICT (user_id) DO UPDATE SET buckets = excluded.buckets, occupied = excluded.occupied")
}

/// The columns of `contact_states` that hold enrichment-fetch's check of a contact, in the
/// order `EnrichmentCheck` reads and writes them.
enum StoredCheckColumns: Int, RowColumns {
  case checkFingerprint, checkSettings, checkDueAt, checkBuckets, checkVerifiedKey
}

extension LiveContactCheck: DecodableRow {
  enum Columns: Int, RowColumns {
    case contactID, userID, stamp, checkFingerprint, checkSettings, checkDueAt, checkBuckets, checkVerifiedKey
  }
  static let table = "contacts"

  init(_ row: RowDecoder<Columns>) throws {
    self.init(contactID: row.key(.contactID), userID: row.key(.userID), stamp: row.changeStamp(.stamp))
    // A check is written whole: without a fingerprint and settings the contact has none.
    guard let fingerprint = try row.integerIfPresent(.checkFingerprint),
      let settings = try row.integerIfPresent(.checkSettings)
    else { return }
    var seen: RinUsersSeen?
    if let key = try row.integerIfPresent(.checkVerifiedKey), let text = row.textIfPresent(.checkBuckets) {
      // Buckets that do not parse read as unknown: the next examination writes them again.
      seen = RinUsersSeen(bucketsText: text, key: key)
    }
    check = EnrichmentCheck(
      fingerprint: fingerprint, settings: settings, dueAt: try row.instantIfPresent(.checkDueAt),
      rinUsers: seen)
  }
}

/// One contact's row of `contact_states` as enrichment-fetch writes it: its digest, its check,
/// or both; what is nil keeps the stored value (`enrichmentStateUpsert`).
struct EnrichmentStateRow: EncodableRow {
  enum Columns: Int, RowColumns {
    case contactID, userID, enrichmentDigest, checkFingerprint, checkSettings, checkDueAt, checkBuckets
    case checkVerifiedKey
  }
  static let table = "contact_states"
  var contactID: ContactID
  var userID: UserID
  var check: EnrichmentCheck?
  var enrichmentDigest: Int64?

  init(contactID: ContactID, userID: UserID, check: EnrichmentCheck? = nil) {
    self.contactID = contactID
    self.userID = userID
    self.check = check
  }

  func encode(to row: inout RowEncoder<Columns>) {
    row[.contactID] = .integer(contactID)
    row[.userID] = .integer(userID)
    row[.enrichmentDigest] = SQLValue(enrichmentDigest)
    guard let check else { return }
    row[.checkFingerprint] = .integer(check.fingerprint)
    row[.checkSettings] = .integer(check.settings)
    row[.checkDueAt] = SQLValue(check.dueAt)
    row[.checkBuckets] = SQLValue(check.rinUsers?.bucketsText)
    row[.checkVerifiedKey] = SQLValue(check.rinUsers?.key)
  }
}

/// A verified user's number (the services' `users`: a row whose number is unreadable is
/// skipped).
struct VerifiedUserPhone: DecodableRow {
  enum Columns: Int, RowColumns { case id, phoneE164 }
  static let table = "users"
  let id: UserID
  let phoneE164: String?

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    phoneE164 = row.textIfPresent(.phoneE164)
  }
}

/// A departed user who had verified a number (the services' `users`).
private struct DepartedVerifiedUser: DecodableRow {
  enum Columns: Int, RowColumns { case id, phoneE164, deletedAt }
  static let table = "users"
  let id: UserID
  let phoneE164: String?
  let deletedAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    phoneE164 = row.textIfPresent(.phoneE164)
    deletedAt = row.instantIfValid(.deletedAt)
  }
}

/// An `enrichment_owner_buckets` row.
struct OwnerBucketsRow: DecodableRow, EncodableRow {
  enum Columns: Int, RowColumns { case userID, buckets, occupied }
  static let table = "enrichment_owner_buckets"
  let userID: UserID
  let buckets: [Int64]
  /// Nil when stored before the occupied buckets were kept, or unreadable: the next
  /// examination finds them again.
  let occupied: OccupiedBuckets?

  init(userID: UserID, buckets: [Int64], occupied: OccupiedBuckets?) {
    self.userID = userID
    self.buckets = buckets
    self.occupied = occupied
  }

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    // `BucketList`'s form, or a plain comma-separated list, which a row may still hold.
    buckets = try row.parsed(.buckets, as: "a list of buckets") { text in
      BucketList.parse(text) ?? text.split(separator: ",").compactMap { Int64($0) }
    }
    occupied = row.textIfPresent(.occupied).flatMap(OccupiedBuckets.parse)
  }

  var stored: StoredOwnerBuckets { StoredOwnerBuckets(buckets: buckets, occupied: occupied) }

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.buckets] = .text(BucketList.text(buckets))
    row[.occupied] = SQLValue(occupied?.text)
  }
}
