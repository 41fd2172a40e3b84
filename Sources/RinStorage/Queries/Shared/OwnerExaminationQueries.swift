import RinDomain

/// What jobs that skip unchanged owners stored of the owners they examined
/// (`owner_examinations`, keyed by job and owner).
extension StorageTransaction {
  /// `job`'s last examination of each of `userIDs` it examined, by owner.
  public func ownerExaminations(job: JobName, of userIDs: [UserID]) throws -> [UserID: StoredOwnerExamination]
  {
    var stored: [UserID: StoredOwnerExamination] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEach(
      OwnerExaminationRow.self,
      """
      SELECT \(columns: OwnerExaminationRow.Columns.self) FROM owner_examinations
      WHERE job = \(SQLValue(job)) AND \(owners.condition(on: "user_id"))
      """
    ) { row in
      if owners.includes(row.userID) { stored[row.userID] = row.examination }
    }
    return stored
  }

  /// Records that `job` examined these owners, in a few multi-row statements. Bookkeeping, like
  /// a checkpoint: not reported as a change of the data contract.
  public func saveOwnerExaminations(
    job: JobName, _ owners: [(userID: UserID, examination: StoredOwnerExamination)]
  )
    throws
  {
    try Self.ownerExaminationUpsert.execute(
      owners.map { owner in
        [
          SQLValue(job), .integer(owner.userID), .integer(owner.examination.fingerprint),
          .instant(owner.examination.examinedAt), SQLValue(owner.examination.dueAt),
          owner.examination.stampedRows.map(SQLValue.integer) ?? .null,
          owner.examination.regionDigest.map(SQLValue.integer) ?? .null,
        ]
      }, on: sql)
  }

  private static let ownerExaminationUpsert = MultiRowStatement(
    head:
      "INSERT INTO owner_examinations (job, user_id, fingerprint, examined_at, due_at, stamped_rows, region_digest) VALUES",
    columns: 7,
    tail: """
      ON CONFLICT (job, user_id) DO UPDATE SET fingerprint = excluded.fingerprint,
        examined_at = excluded.examined_at, due_at = excluded.due_at, stamped_rows = excluded.stamped_rows,
        region_digest = excluded.region_digest
      """)
}

private struct OwnerExaminationRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, fingerprint, examinedAt, dueAt, stampedRows, regionDigest }
  static let table = "owner_examinations"
  let userID: UserID
  let examination: StoredOwnerExamination

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    examination = StoredOwnerExamination(
      fingerprint: try row.integer(.fingerprint), examinedAt: try row.instant(.examinedAt),
      dueAt: try row.instantIfPresent(.dueAt), stampedRows: try row.integerIfPresent(.stampedRows),
      regionDigest: try row.integerIfPresent(.regionDigest))
  }
}
