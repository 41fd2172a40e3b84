import RinDomain

/// Domain values as the tables store them, formatted here, where a statement binds them.
extension SQLValue {
  /// `YYYY-MM-DD`: as text, dates sort and compare as the days do.
  init(_ date: CalendarDate) { self = .text(date.description) }

  /// The job's name as `pipelines.yaml` and the command line spell it.
  init(_ job: JobName) { self = .text(job.rawValue) }
}
