/// What one row of the run ledger ran: a job, or a pipeline as a whole (the row beside its jobs'
/// rows that holds the pipeline's lease and outcome).
///
/// `description` is the ledger's `job` column and the metrics' `job` label: the job's name, or
/// `pipeline:NAME`; no job name contains a colon, so the two never collide.
public enum RunSubject: Hashable, Sendable, TextCodable {
  case job(JobName)
  case pipeline(PipelineName)

  /// Reads what `description` wrote; nil for anything else.
  public init?(_ text: String) {
    if text.hasPrefix(Self.pipelinePrefix) {
      guard let name = PipelineName(rawValue: String(text.dropFirst(Self.pipelinePrefix.count))) else {
        return nil
      }
      self = .pipeline(name)
    } else {
      guard let job = JobName(rawValue: text) else { return nil }
      self = .job(job)
    }
  }

  public var description: String {
    switch self {
    case .job(let job): job.rawValue
    case .pipeline(let name): Self.pipelinePrefix + name.rawValue
    }
  }

  /// The job, when this is one.
  public var job: JobName? {
    if case .job(let job) = self { job } else { nil }
  }

  private static let pipelinePrefix = "pipeline:"
}
