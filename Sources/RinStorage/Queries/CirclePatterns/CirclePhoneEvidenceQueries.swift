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

  /// Records what these contacts' numbers showed, in a few multi-row statements (their row of
  /// `contact_states`, the other jobs' columns left as they are). Bookkeeping, like a
  /// checkpoint: not reported as a change of the data contract.
  public func saveCirclePhoneEvidence(
    _ evidence: [(contactID: Int64, userID: Int64, evidence: PhoneEvidence)]
  )
    throws
  {
    try Self.circlePhoneEvidenceUpsert.execute(
      evidence.map { contactID, userID, evidence in
        [
          .integer(contactID), .integer(userID), .integer(evidence.fingerprint),
          .integer(Int64(evidence.validNumbers)), .integer(Int64(evidence.invalidNumbers)),
          .text(evidence.areaCodeList),
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

  private static let circlePhoneEvidenceUpsert = MultiRowStatement(
    head:
      "INSERT INTO contact_states (contact_id, user_id, evidence_fingerprint, valid_numbers, invalid_numbers, area_codes) VALUES",
    columns: 6,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id,
        evidence_fingerprint = excluded.evidence_fingerprint, valid_numbers = excluded.valid_numbers,
        invalid_numbers = excluded.invalid_numbers, area_codes = excluded.area_codes
      """)
}
