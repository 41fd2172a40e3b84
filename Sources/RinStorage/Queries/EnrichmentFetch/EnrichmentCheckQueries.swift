import RinDomain

extension EnrichmentQueries {
  /// Every live contact of these owners, with its change stamp and its stored check (nil when
  /// it has none): one probe of `contact_states` per contact.
  public func enrichmentChecks(of userIDs: [Int64]) throws -> [LiveContactCheck] {
    try enrichmentChecks(where: "c.user_id IN (\(SQLDialect.list(userIDs)))")
  }

  /// These contacts, those of them still live, with their change stamps and stored checks.
  public func enrichmentChecks(ids: [Int64]) throws -> [LiveContactCheck] {
    guard !ids.isEmpty else { return [] }
    return try enrichmentChecks(where: "c.id IN (\(SQLDialect.list(ids)))")
  }

  private func enrichmentChecks(where condition: SQLFragment) throws -> [LiveContactCheck] {
    var checks: [LiveContactCheck] = []
    let dialect = sql.dialect
    try sql.forEachRow(
      """
      SELECT c.id, c.user_id, \(literal: dialect.contactChangeStamp("c")),
        k.check_fingerprint, k.check_settings, k.check_due_at, k.check_buckets, k.check_verified_key
      FROM contacts c
      \(literal: dialect.join(rowsOf: "contact_states", as: "k", whose: "contact_id", equals: "c.id", keepingUnmatched: true))
      WHERE \(condition) AND c.deleted_at IS NULL
      """
    ) { row in
      guard let contact = row.int64(0), let user = row.int64(1) else { return }
      var live = LiveContactCheck(contactID: contact, userID: user, stamp: row.int64(2) ?? 0)
      if let fingerprint = row.int64(3), let settings = row.int64(4) {
        let seen = row.text(6).flatMap { text in
          row.int64(7).flatMap { RinUsersSeen(bucketsText: text, key: $0) }
        }
        live.check = EnrichmentCheck(
          fingerprint: fingerprint, settings: settings, dueAt: row.instant(5), rinUsers: seen)
      }
      checks.append(live)
    }
    return checks
  }

  /// Records what an examination of these contacts found: the checks made and the digests read
  /// (`PeriodicContactPass`), each contact's in one write of its row of `contact_states`, the
  /// other job's columns left as they are. One write, not one per kind: on PostgreSQL every
  /// write of a row leaves a version of it behind until vacuum, and a first night would leave
  /// several. Bookkeeping, like a checkpoint: not reported as a change of the data contract.
  public func saveEnrichmentState(
    checks: [(contactID: Int64, userID: Int64, check: EnrichmentCheck)], digests: [ContactDigest]
  ) throws {
    var rows: [Int64: (userID: Int64, check: EnrichmentCheck?, digest: Int64?)] = [:]
    for (contact, user, check) in checks { rows[contact] = (user, check, nil) }
    for digest in digests {
      rows[digest.contactID, default: (digest.userID, nil, nil)].digest = digest.digest
    }
    try Self.enrichmentStateUpsert.execute(
      rows.sorted { $0.key < $1.key }.map { contact, row in
        [
          .integer(contact), .integer(row.userID), SQLValue(row.digest), SQLValue(row.check?.fingerprint),
          SQLValue(row.check?.settings), SQLValue(row.check?.dueAt),
          SQLValue(row.check?.rinUsers?.bucketsText),
          SQLValue(row.check?.rinUsers?.key),
        ]
      }, on: sql)
  }

  /// A null digest or check fingerprint means "not written this time": the stored one stays
  /// (a written check always has a fingerprint, a written digest a value).
  private static let enrichmentStateUpsert = MultiRowStatement(
    head: """
      INSERT INTO contact_states (contact_id, user_id, enrichment_digest, check_fingerprint,
        check_settings, check_due_at, check_buckets, check_verified_key) VALUES
      """,
    columns: 8,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id,
        enrichment_digest = coalesce(excluded.enrichment_digest, contact_states.enrichment_digest),
        \(keptUnlessWritten(["check_fingerprint", "check_settings", "check_due_at", "check_buckets", "check_verified_key"], marker: "check_fingerprint"))
      """)

  /// Every live user with a verified number (E.164), streamed to `body`.
  public func forEachVerifiedUserPhone(_ body: (_ userID: Int64, _ phone: String) -> Void) throws {
    try sql.forEachRow(
      "SELECT id, phone_e164 FROM users WHERE phone_verified = 1 AND deleted_at IS NULL AND phone_e164 IS NOT NULL"
    ) { row in
      if let user = row.int64(0), let phone = row.text(1) { body(user, phone) }
    }
  }

  /// Every user deleted after `instant` who had verified a number, with the number and the
  /// deletion's time.
  public func forEachDepartedVerifiedUser(
    deletedAfter instant: UTCInstant,
    _ body: (_ userID: Int64, _ phone: String, _ deletedAt: UTCInstant) -> Void
  ) throws {
    try sql.forEachRow(
      """
      SELECT id, phone_e164, deleted_at FROM users
      WHERE phone_verified = 1 AND deleted_at > \(instant) AND phone_e164 IS NOT NULL
      """
    ) { row in
      if let user = row.int64(0), let phone = row.text(1), let deletedAt = row.instant(2) {
        body(user, phone, deletedAt)
      }
    }
  }

  /// The buckets of each owner's contacts' numbers as last stored (`enrichment_owner_buckets`,
  /// one row per owner), and the contacts in those that held a verified user, by owner.
  public func enrichmentOwnerBuckets(of userIDs: [Int64]) throws -> [Int64: StoredOwnerBuckets] {
    var found: [Int64: StoredOwnerBuckets] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachRow(
      "SELECT user_id, buckets, occupied FROM enrichment_owner_buckets WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard let user = row.int64(0), owners.includes(user), let list = row.text(1) else { return }
      found[user] = StoredOwnerBuckets(
        buckets: BucketList.parse(list) ?? list.split(separator: ",").compactMap { Int64($0) },
        occupied: row.text(2).flatMap(OccupiedBuckets.parse))
    }
    return found
  }

  /// Stores the buckets of these owners' contacts' numbers and the contacts in those that hold
  /// a verified user, replacing what was stored.
  public func saveEnrichmentOwnerBuckets(_ buckets: [Int64: Set<Int64>], occupied: [Int64: OccupiedBuckets])
    throws
  {
    try Self.ownerBucketUpsert.execute(
      buckets.sorted { $0.key < $1.key }.map { owner, buckets in
        [
          .integer(owner), .text(BucketList.text(buckets.sorted())),
          occupied[owner].map { .text($0.text) } ?? .null,
        ]
      }, on: sql)
  }

  private static let ownerBucketUpsert = MultiRowStatement(
    head: "INSERT INTO enrichment_owner_buckets (user_id, buckets, occupied) VALUES", columns: 3,
    tail: "ON CONFLICT (user_id) DO UPDATE SET buckets = excluded.buckets, occupied = excluded.occupied")
}
