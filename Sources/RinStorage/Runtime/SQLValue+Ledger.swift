import RinDomain

/// The ledger's values as its tables store them, formatted here, where a statement binds them,
/// and read back by the `SQLRowReader` extension below.
extension SQLValue {
  /// Instants are Unix seconds (integer columns).
  init(seconds instant: UTCInstant?) { self = instant.map { .integer($0.seconds) } ?? .null }

  /// A slot is its ISO 8601 text: fixed width, so the text column sorts in time order.
  init(slot: UTCInstant?) { self = slot.map { .text($0.description) } ?? .null }

  init(date: CalendarDate?) { self = date.map { .text($0.description) } ?? .null }

  /// `job` column: the job's name, or `pipeline:NAME`.
  init(_ subject: RunSubject) { self = .text(subject.description) }

  /// `all`, or `K/N`.
  init(_ shard: RunShard) { self = .text(shard.description) }

  init(_ pipeline: PipelineName?) { self = pipeline.map { .text($0.rawValue) } ?? .null }
}

extension SQLRowReader {
  func instant(_ index: Int) -> UTCInstant? { int64(index).map(UTCInstant.init(seconds:)) }

  func slot(_ index: Int) -> UTCInstant? { text(index).flatMap(UTCInstant.init) }

  func date(_ index: Int) -> CalendarDate? { text(index).flatMap(CalendarDate.init) }

  func subject(_ index: Int) -> RunSubject? { text(index).flatMap(RunSubject.init) }

  func shard(_ index: Int) -> RunShard? { text(index).flatMap(RunShard.init) }

  func pipeline(_ index: Int) -> PipelineName? { text(index).flatMap(PipelineName.init(rawValue:)) }
}
