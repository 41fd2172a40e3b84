import RinDomain

/// Domain values as the tables store them, formatted here, where a statement binds them.
extension SQLValue {
  /// `YYYY-MM-DD`: as text, dates sort and compare as the days do.
  package init(_ date: CalendarDate) { self = .text(date.description) }

  /// The job's name as `pipelines.yaml` and the command line spell it.
  package init(_ job: JobName) { self = .text(job.rawValue) }
}

/// Instants as the tables store them: Unix seconds in an INTEGER column.
extension SQLValue {
  public init(_ instant: UTCInstant) { self = .integer(instant.seconds) }

  public init(_ instant: UTCInstant?) { self = instant.map { .integer($0.seconds) } ?? .null }

  package static func instant(_ instant: UTCInstant) -> SQLValue { .integer(instant.seconds) }
}

extension SQLRowReader {
  /// The instant in column `index`, nil when it holds no integer.
  func instant(_ index: Int) -> UTCInstant? { int64(index).map(UTCInstant.init(seconds:)) }
}
