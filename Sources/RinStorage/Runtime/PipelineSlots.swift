import RinDomain

/// The ledger as the scheduler reads it: the real runs of a pipeline as a whole (its own rows,
/// `RunSubject.pipeline`), by slot. Slots are fixed-width UTC ISO 8601 text, so a text range is
/// a time range.
extension RuntimeQueries {
  /// Real runs of the pipeline for slots in [`fromSlot`, `throughSlot`], by slot then id.
  public func pipelineSlotRuns(_ pipeline: PipelineName, fromSlot: UTCInstant, throughSlot: UTCInstant)
    throws -> [RunRecord]
  {
    var result: [RunRecord] = []
    try sql.forEachRow(
      """
      SELECT \(literal: Self.runColumns) FROM job_runs
      WHERE pipeline = \(SQLValue(pipeline)) AND slot >= \(SQLValue(slot: fromSlot)) AND slot <= \(SQLValue(slot: throughSlot)) AND job = \(SQLValue(RunSubject.pipeline(pipeline))) AND dry_run = 0
      ORDER BY slot, id
      """
    ) { row in
      if let record = Self.runRecord(row) { result.append(record) }
    }
    return result
  }

  /// The first slot any real run of the pipeline was recorded for: when its schedule began to
  /// be kept, as far as the ledger knows.
  public func earliestPipelineSlot(_ pipeline: PipelineName) throws -> UTCInstant? {
    try sql.fetchText(
      "SELECT min(slot) FROM job_runs WHERE pipeline = \(SQLValue(pipeline)) AND job = \(SQLValue(RunSubject.pipeline(pipeline))) AND dry_run = 0 AND slot IS NOT NULL"
    ).flatMap(UTCInstant.init)
  }

  /// The pipeline's latest real run, slotted or not.
  public func lastPipelineRun(_ pipeline: PipelineName) throws -> RunRecord? {
    var found: RunRecord?
    // A catch-up's markers of the older slots it superseded are written after its run: they
    // are not the last run.
    try sql.forEachRow(
      """
      SELECT \(literal: Self.runColumns) FROM job_runs
      WHERE job = \(SQLValue(RunSubject.pipeline(pipeline))) AND pipeline = \(SQLValue(pipeline)) AND dry_run = 0
        AND superseded_by IS NULL
      ORDER BY id DESC LIMIT 1
      """
    ) { found = Self.runRecord($0) }
    return found
  }
}
