import RinDomain

/// The ledger's values as its tables store them, formatted here, where a statement binds them,
/// and read back by the `SQLRowReader` extension below (instants: `SQLValue+Domain.swift`).
extension SQLValue {
  /// A slot is its ISO 8601 text: fixed width, so the text column sorts in time order.
  init(slot: UTCInstant?) { self = slot.map { .text($0.description) } ?? .null }

  init(date: CalendarDate?) { self = date.map { .text($0.description) } ?? .null }

  /// `job` column: the job's name, or `pipeline:NAME`.
  init(_ subject: RunSubject) { self = .text(subject.description) }

  /// `all`, or `K/N`.
  init(_ shard: RunShard) { self = .text(shard.description) }

  /// `all` or `K/N`, then ` users …` with `--user`.
  init(_ scope: CheckpointScope) { self = .text(scope.description) }

  init(_ pipeline: PipelineName?) { self = pipeline.map { .text($0.rawValue) } ?? .null }
}

extension RowDecoder {
  func slotIfPresent(_ column: Columns) throws -> UTCInstant? {
    try textIfPresent(column).map { _ in try parsed(column, as: "an ISO 8601 instant", UTCInstant.init) }
  }

  func dateIfPresent(_ column: Columns) throws -> CalendarDate? {
    try textIfPresent(column).map { _ in try date(column) }
  }

  func pipelineIfPresent(_ column: Columns) throws -> PipelineName? {
    try textIfPresent(column).map { _ in try value(column, as: PipelineName.self) }
  }
}
