import RinDomain
import RinStorage

extension CirclePatternsQueries {
  /// The stored phone evidence of the batch's live contacts (`contact_states`), by contact id.
  func circlePhoneEvidence(of userIDs: [UserID]) throws -> [ContactID: PhoneEvidence] {
    var stored: [ContactID: PhoneEvidence] = [:]
    try tx.sql.forEach(
      StoredPhoneEvidence.self,
      """
      SELECT \(columns: StoredPhoneEvidence.Columns.self, from: "e")
      FROM contacts c \(literal: tx.sql.dialect.join(rowsOf: "contact_states", as: "e", whose: "contact_id", equals: "c.id"))
      WHERE c.user_id IN (\(SQLDialect.list(userIDs))) AND c.deleted_at IS NULL
      """
    ) { row in
      if let evidence = row.evidence { stored[row.contactID] = evidence }
    }
    return stored
  }

  /// Records what an examination of these contacts found: what their numbers showed and the
  /// digests read (`PeriodicContactPass`), each contact's in one write of its row of
  /// `contact_states`, the other job's columns left as they are (one write, not one per kind:
  /// enrichment-fetch's `saveEnrichmentState`). Bookkeeping, like a checkpoint: not reported as
  /// a change of the data contract.
  func saveCirclePatternsState(
    evidence: [(contactID: ContactID, userID: UserID, evidence: PhoneEvidence)], digests: [ContactDigest]
  ) throws {
    var rows: [ContactID: (userID: UserID, evidence: PhoneEvidence?, digest: Int64?)] = [:]
    for (contact, user, found) in evidence { rows[contact] = (user, found, nil) }
    for digest in digests {
      rows[digest.contactID, default: (digest.userID, nil, nil)].digest = digest.digest
    }
    try Self.circlePatternsStateUpsert.execute(
      rows: rows.sorted { $0.key < $1.key }.map { contact, row in
        CirclePatternsState(
          contactID: contact, userID: row.userID, digest: row.digest, evidence: row.evidence)
      }, on: tx.sql)
  }

  /// Drops the state of the users' deleted contacts: no job reads a deleted contact's state
  /// again (the periodic pass reads live contacts, and drops a deleted one's digests itself).
  func forgetStateOfDeletedContacts(of userIDs: [UserID]) throws {
    _ = try tx.sql.execute(
      """
      DELETE FROM contact_states WHERE \(tx.sql.dialect.isIn(
        "contact_id",
        subquery: "SELECT id FROM contacts WHERE user_id IN (\(SQLDialect.list(userIDs))) AND deleted_at IS NOT NULL"))
      """)
  }

  /// A null digest or evidence fingerprint means "not written this time": the stored one stays.
  private static let circlePatternsStateUpsert = MultiRowStatement(
    inserting: CirclePatternsState.self,
    tail: """
      ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id,
        circles_digest = coalesce(excluded.circles_digest, contact_states.circles_digest),
        \(keptUnlessWritten(["evidence_fingerprint", "valid_numbers", "invalid_numbers", "area_codes"], marker: "evidence_fingerprint"))
      """)
}

/// What a contact's numbers showed when last parsed: nil where circle-patterns has not written
/// it (the row holds only the other job's columns).
private struct StoredPhoneEvidence: DecodableRow {
  enum Columns: Int, RowColumns {
    case contactID, evidenceFingerprint, validNumbers, invalidNumbers, areaCodes
  }
  static let table = "contact_states"
  let contactID: ContactID
  let evidence: PhoneEvidence?

  init(_ row: RowDecoder<Columns>) throws {
    contactID = row.key(.contactID)
    guard let fingerprint = try row.integerIfPresent(.evidenceFingerprint),
      let valid = try row.integerIfPresent(.validNumbers),
      let invalid = try row.integerIfPresent(.invalidNumbers), let codes = row.textIfPresent(.areaCodes)
    else {
      evidence = nil
      return
    }
    evidence = PhoneEvidence(
      fingerprint: fingerprint, validNumbers: Int(valid), invalidNumbers: Int(invalid),
      areaCodes: PhoneEvidence.areaCodes(fromList: codes))
  }
}

/// circle-patterns' columns of a contact's `contact_states` row; a nil digest or evidence is
/// written as NULL, which the upsert reads as "keep the stored one".
private struct CirclePatternsState: EncodableRow {
  enum Columns: Int, RowColumns {
    case contactID, userID, circlesDigest, evidenceFingerprint, validNumbers, invalidNumbers, areaCodes
  }
  static let table = "contact_states"
  let contactID: ContactID
  let userID: UserID
  let digest: Int64?
  let evidence: PhoneEvidence?

  func encode(to row: inout RowEncoder<Columns>) {
    row[.contactID] = .integer(contactID)
    row[.userID] = .integer(userID)
    row[.circlesDigest] = SQLValue(digest)
    guard let evidence else { return }
    row[.evidenceFingerprint] = .integer(evidence.fingerprint)
    row[.validNumbers] = .integer(Int64(evidence.validNumbers))
    row[.invalidNumbers] = .integer(Int64(evidence.invalidNumbers))
    row[.areaCodes] = .text(evidence.areaCodeList)
  }
}
