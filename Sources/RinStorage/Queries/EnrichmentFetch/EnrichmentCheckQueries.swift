import RinDomain

extension EnrichmentQueries {
  /// Every live contact of these owners, with its change stamp and its stored check (nil when
  /// it has none): one probe of `enrichment_checks` per contact.
  public func enrichmentChecks(of userIDs: [Int64]) throws -> [LiveContactCheck] {
    var checks: [LiveContactCheck] = []
    let dialect = sql.dialect
    try sql.forEachRow(
      """
      SELECT c.id, c.user_id, \(literal: dialect.contactChangeStamp("c")),
        k.fingerprint, k.settings, k.due_at, k.buckets, k.verified_key FROM contacts c
      \(literal: dialect.join(rowsOf: "enrichment_checks", as: "k", whose: "contact_id", equals: "c.id", keepingUnmatched: true))
      WHERE c.user_id IN (\(SQLDialect.list(userIDs))) AND c.deleted_at IS NULL
      """
    ) { row in
      guard let contact = row.int64(0), let user = row.int64(1) else { return }
      var live = LiveContactCheck(contactID: contact, userID: user, stamp: row.int64(2) ?? 0)
      if let fingerprint = row.int64(3), let settings = row.text(4) {
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

  /// Records that these contacts were checked at `instant`, in a few multi-row statements.
  /// Bookkeeping, like a checkpoint: not reported as a change of the data contract.
  public func saveEnrichmentChecks(
    _ checks: [(contactID: Int64, check: EnrichmentCheck)], at instant: UTCInstant
  )
    throws
  {
    try Self.enrichmentCheckUpsert.execute(
      checks.map { contactID, check in
        [
          .integer(contactID), .integer(check.fingerprint), .text(check.settings), .instant(instant),
          SQLValue(check.dueAt), SQLValue(check.rinUsers?.bucketsText), SQLValue(check.rinUsers?.key),
        ]
      }, on: sql)
  }

  private static let enrichmentCheckUpsert = MultiRowStatement(
    head: """
      INSERT INTO enrichment_checks (contact_id, fingerprint, settings, checked_at, due_at, buckets,
        verified_key) VALUES
      """,
    columns: 7,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET fingerprint = excluded.fingerprint,
        settings = excluded.settings, checked_at = excluded.checked_at, due_at = excluded.due_at,
        buckets = excluded.buckets, verified_key = excluded.verified_key
      """)

  /// Every live user with a verified number (E.164), streamed to `body`.
  public func forEachVerifiedUserPhone(_ body: (_ userID: Int64, _ phone: String) -> Void) throws {
    try sql.forEachRow(
      "SELECT id, phone_e164 FROM users WHERE phone_verified = 1 AND deleted_at IS NULL AND phone_e164 IS NOT NULL"
    ) { row in
      if let user = row.int64(0), let phone = row.text(1) { body(user, phone) }
    }
  }

  /// The buckets of each owner's contacts' numbers as last stored (`enrichment_owner_buckets`,
  /// one row per owner), by owner.
  public func enrichmentOwnerBuckets(of userIDs: [Int64]) throws -> [Int64: [Int64]] {
    var found: [Int64: [Int64]] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachRow(
      "SELECT user_id, buckets FROM enrichment_owner_buckets WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard let user = row.int64(0), owners.includes(user), let list = row.text(1) else { return }
      found[user] = BucketList.parse(list) ?? list.split(separator: ",").compactMap { Int64($0) }
    }
    return found
  }

  /// Stores the buckets of these owners' contacts' numbers, replacing what was stored.
  public func saveEnrichmentOwnerBuckets(_ buckets: [Int64: Set<Int64>]) throws {
    try Self.ownerBucketUpsert.execute(
      buckets.sorted { $0.key < $1.key }.map { owner, buckets in
        [.integer(owner), .text(BucketList.text(buckets.sorted()))]
      }, on: sql)
  }

  private static let ownerBucketUpsert = MultiRowStatement(
    head: "INSERT INTO enrichment_owner_buckets (user_id, buckets) VALUES", columns: 2,
    tail: "ON CONFLICT (user_id) DO UPDATE SET buckets = excluded.buckets")
}
