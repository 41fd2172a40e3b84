import RinDomain

/// Where an unfinished run stopped: the next run for the same job, `as_of` and scope resumes
/// after `lastUserID`. Written in the same transaction as the batch it follows.
public struct Checkpoint: Sendable, Equatable {
  public var job: JobName
  public var asOf: CalendarDate
  public var scope: CheckpointScope
  public var runID: RunID
  public var lastUserID: UserID

  public init(job: JobName, asOf: CalendarDate, scope: CheckpointScope, runID: RunID, lastUserID: UserID) {
    self.job = job
    self.asOf = asOf
    self.scope = scope
    self.runID = runID
    self.lastUserID = lastUserID
  }
}

extension RuntimeQueries {
  public func checkpoint(job: JobName, asOf: CalendarDate, scope: CheckpointScope) throws -> Checkpoint? {
    var found: Checkpoint?
    try sql.forEach(
      CheckpointRow.self,
      "SELECT \(columns: CheckpointRow.Columns.self) FROM job_checkpoints WHERE job = \(SQLValue(job)) AND as_of = \(SQLValue(asOf)) AND scope = \(SQLValue(scope))"
    ) { row in
      found = Checkpoint(job: job, asOf: asOf, scope: scope, runID: row.runID, lastUserID: row.lastUserID)
    }
    return found
  }

  public func saveCheckpoint(_ checkpoint: Checkpoint, at instant: UTCInstant) throws {
    try sql.execute(
      """
      INSERT INTO job_checkpoints (job, as_of, scope, run_id, last_user_id, updated_at)
      VALUES (\(SQLValue(checkpoint.job)), \(SQLValue(checkpoint.asOf)), \(SQLValue(checkpoint.scope)), \(.integer(checkpoint.runID)), \(.integer(checkpoint.lastUserID)), \(SQLValue(instant)))
      ON CONFLICT (job, as_of, scope) DO UPDATE SET run_id = excluded.run_id,
        last_user_id = excluded.last_user_id, updated_at = excluded.updated_at
      """)
  }

  public func clearCheckpoint(job: JobName, asOf: CalendarDate, scope: CheckpointScope) throws {
    try sql.execute(
      "DELETE FROM job_checkpoints WHERE job = \(SQLValue(job)) AND as_of = \(SQLValue(asOf)) AND scope = \(SQLValue(scope))"
    )
  }
}

private struct CheckpointRow: DecodableRow {
  enum Columns: Int, RowColumns { case runID, lastUserID }
  static let table = "job_checkpoints"
  let runID: RunID
  let lastUserID: UserID

  init(_ row: RowDecoder<Columns>) throws {
    runID = try row.integer(.runID)
    lastUserID = try row.integer(.lastUserID)
  }
}
