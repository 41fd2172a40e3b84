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

extension SQLRowReader {
  func slot(_ index: Int) -> UTCInstant? { text(index).flatMap(UTCInstant.init) }

  func date(_ index: Int) -> CalendarDate? { text(index).flatMap(CalendarDate.init) }

  func subject(_ index: Int) -> RunSubject? { text(index).flatMap(RunSubject.init) }

  func shard(_ index: Int) -> RunShard? { text(index).flatMap(RunShard.init) }

  func pipeline(_ index: Int) -> PipelineName? { text(index).flatMap(PipelineName.init(rawValue:)) }
}
