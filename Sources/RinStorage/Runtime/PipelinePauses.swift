import RinDomain

/// A paused pipeline, as `pipeline_pauses` keeps it.
public struct PipelinePause: Sendable, Encodable, Equatable {
  public var pipeline: PipelineName
  /// On the wall clock.
  public var pausedAt: UTCInstant
  /// user@host, or `rinjobs (pause_after_failures)`.
  public var pausedBy: String
  public var reason: String?

  public init(pipeline: PipelineName, pausedAt: UTCInstant, pausedBy: String, reason: String?) {
    self.pipeline = pipeline
    self.pausedAt = pausedAt
    // Printed by `status` and `pipeline pause`: no terminal escape survives, as written or read.
    self.pausedBy = TerminalText.printable(pausedBy)
    self.reason = reason.map(TerminalText.printable)
  }
}

extension RuntimeQueries {
  /// Pauses `pause.pipeline`; a pipeline already paused keeps its first pause (when, by whom,
  /// why). Returns the pause in force.
  @discardableResult
  public func pausePipeline(_ pause: PipelinePause) throws -> PipelinePause {
    _ = try sql.execute(
      """
      INSERT INTO pipeline_pauses (pipeline, paused_at, paused_by, reason) VALUES (\(SQLValue(pause.pipeline)), \(SQLValue(pause.pausedAt)), \(.text(pause.pausedBy)), \(SQLValue(pause.reason)))
      ON CONFLICT (pipeline) DO NOTHING
      """)
    return try pipelinePause(pause.pipeline) ?? pause
  }

  /// Resumes a paused pipeline; false when it was not paused.
  public func resumePipeline(_ pipeline: PipelineName) throws -> Bool {
    try sql.execute("DELETE FROM pipeline_pauses WHERE pipeline = \(SQLValue(pipeline))") > 0
  }

  public func pipelinePause(_ pipeline: PipelineName) throws -> PipelinePause? {
    var found: PipelinePause?
    try sql.forEach(
      PauseRow.self,
      "SELECT \(columns: PauseRow.Columns.self) FROM pipeline_pauses WHERE pipeline = \(SQLValue(pipeline))"
    ) { row in
      found = PipelinePause(
        pipeline: pipeline, pausedAt: row.pausedAt, pausedBy: row.pausedBy, reason: row.reason)
    }
    return found
  }

  /// The statuses of the pipeline's latest `count` slots that ran, newest first (a slot's
  /// latest row), for `pause_after_failures`.
  public func latestSlotStatuses(pipeline: PipelineName, count: Int) throws -> [RunRecord.Status] {
    var statuses: [RunRecord.Status] = []
    try sql.forEach(
      SlotStatus.self,
      """
      SELECT status FROM job_runs r
      WHERE job = \(SQLValue(RunSubject.pipeline(pipeline))) AND pipeline = \(SQLValue(pipeline)) AND slot IS NOT NULL AND dry_run = 0
        AND id = (SELECT max(id) FROM job_runs x WHERE x.job = r.job AND x.pipeline = r.pipeline AND x.slot = r.slot)
      ORDER BY slot DESC LIMIT \(.integer(Int64(count)))
      """
    ) { row in
      if let status = row.status { statuses.append(status) }
    }
    return statuses
  }
}

private struct PauseRow: DecodableRow {
  enum Columns: Int, RowColumns { case pausedAt, pausedBy, reason }
  static let table = "pipeline_pauses"
  let pausedAt: UTCInstant
  let pausedBy: String
  let reason: String?

  init(_ row: RowDecoder<Columns>) throws {
    pausedAt = try row.instant(.pausedAt)
    pausedBy = try row.text(.pausedBy)
    reason = row.textIfPresent(.reason)
  }
}

/// A slot's latest status; nil for one a later release writes.
private struct SlotStatus: DecodableRow {
  enum Columns: Int, RowColumns { case status }
  static let table = "job_runs"
  let status: RunRecord.Status?

  init(_ row: RowDecoder<Columns>) throws {
    status = RunRecord.Status(rawValue: try row.text(.status))
  }
}
