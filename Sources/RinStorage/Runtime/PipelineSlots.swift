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
    try sql.forEach(
      JobRunRow.self,
      """
      SELECT \(columns: JobRunRow.Columns.self) FROM job_runs
      WHERE pipeline = \(SQLValue(pipeline)) AND slot >= \(SQLValue(slot: fromSlot)) AND slot <= \(SQLValue(slot: throughSlot)) AND job = \(SQLValue(RunSubject.pipeline(pipeline))) AND dry_run = 0
      ORDER BY slot, id
      """
    ) { row in
      if let record = row.record { result.append(record) }
    }
    return result
  }

  /// The first slot any real run of the pipeline was recorded for: when its schedule began to
  /// be kept, as far as the ledger knows.
  public func earliestPipelineSlot(_ pipeline: PipelineName) throws -> UTCInstant? {
    try sql.rows(
      EarliestSlot.self,
      "SELECT min(slot) AS slot FROM job_runs WHERE pipeline = \(SQLValue(pipeline)) AND job = \(SQLValue(RunSubject.pipeline(pipeline))) AND dry_run = 0 AND slot IS NOT NULL"
    ).first?.slot
  }

  /// The pipeline's latest real run, slotted or not.
  public func lastPipelineRun(_ pipeline: PipelineName) throws -> RunRecord? {
    var found: RunRecord?
    // A catch-up's markers of the older slots it superseded are written after its run: they
    // are not the last run.
    try sql.forEach(
      JobRunRow.self,
      """
      SELECT \(columns: JobRunRow.Columns.self) FROM job_runs
      WHERE job = \(SQLValue(RunSubject.pipeline(pipeline))) AND pipeline = \(SQLValue(pipeline)) AND dry_run = 0
        AND superseded_by IS NULL
      ORDER BY id DESC LIMIT 1
      """
    ) { found = $0.record }
    return found
  }
}

private struct EarliestSlot: DecodableRow {
  enum Columns: Int, RowColumns { case slot }
  static let table = "job_runs"
  let slot: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws { slot = try row.slotIfPresent(.slot) }
}
