import RinDomain

extension CirclePatternsQueries {
  /// The stored phone evidence of the batch's live contacts (`contact_states`), by contact id.
  public func circlePhoneEvidence(of userIDs: [Int64]) throws -> [Int64: PhoneEvidence] {
    var stored: [Int64: PhoneEvidence] = [:]
    try sql.forEachRow(
      """
      SELECT e.contact_id, e.evidence_fingerprint, e.valid_numbers, e.invalid_numbers, e.area_codes
      FROM contacts c \(literal: sql.dialect.join(rowsOf: "contact_states", as: "e", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(userIDs))) AND c.deleted_at IS NULL
      """
    ) { row in
      guard let contact = row.int64(0), let fingerprint = row.int64(1), let valid = row.int64(2),
        let invalid = row.int64(3), let codes = row.text(4)
      else { return }
      stored[contact] = PhoneEvidence(
        fingerprint: fingerprint, validNumbers: Int(valid), invalidNumbers: Int(invalid),
        areaCodes: PhoneEvidence.areaCodes(fromList: codes))
    }
    return stored
  }

  /// Records what an examination of these contacts found: what their numbers showed and the
  /// digests read (`PeriodicContactPass`), each contact's in one write of its row of
  /// `contact_states`, the other job's columns left as they are (one write, not one per kind:
  /// `EnrichmentQueries.saveEnrichmentState`). Bookkeeping, like a checkpoint: not reported as
  /// a change of the data contract.
  public func saveCirclePatternsState(
    evidence: [(contactID: Int64, userID: Int64, evidence: PhoneEvidence)], digests: [ContactDigest]
  ) throws {
    var rows: [Int64: (userID: Int64, evidence: PhoneEvidence?, digest: Int64?)] = [:]
    for (contact, user, found) in evidence { rows[contact] = (user, found, nil) }
    for digest in digests {
      rows[digest.contactID, default: (digest.userID, nil, nil)].digest = digest.digest
    }
    try Self.circlePatternsStateUpsert.execute(
      rows.sorted { $0.key < $1.key }.map { contact, row in
        [
          .integer(contact), .integer(row.userID), SQLValue(row.digest), SQLValue(row.evidence?.fingerprint),
          SQLValue(row.evidence.map { Int64($0.validNumbers) }),
          SQLValue(row.evidence.map { Int64($0.invalidNumbers) }), SQLValue(row.evidence?.areaCodeList),
        ]
      }, on: sql)
  }

  /// Drops the state of the users' deleted contacts: no job reads a deleted contact's state
  /// again (the periodic pass reads live contacts, and drops a deleted one's digests itself).
  public func forgetStateOfDeletedContacts(of userIDs: [Int64]) throws {
    _ = try sql.execute(
      """
      DELETE FROM contact_states WHERE \(sql.dialect.isIn(
        "contact_id",
        subquery: "SELECT id FROM contacts WHERE user_id IN (\(SQLDialect.list(userIDs))) AND deleted_at IS NOT NULL"))
      """)
  }

  /// A null digest or evidence fingerprint means "not written this time": the stored one stays.
  private static let circlePatternsStateUpsert = MultiRowStatement(
    head: """
      INSERT INTO contact_states (contact_id, user_id, circles_digest, evidence_fingerprint,
        valid_numbers, invalid_numbers, area_codes) VALUES
      """,
    columns: 7,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id,
        circles_digest = coalesce(excluded.circles_digest, contact_states.circles_digest),
        \(keptUnlessWritten(["evidence_fingerprint", "valid_numbers", "invalid_numbers", "area_codes"], marker: "evidence_fingerprint"))
      """)
}
