import RinDomain

/// One of the six batch jobs. Implementations hold no state between runs: everything a run
/// needs comes through the context, and everything it leaves goes through storage.
public protocol Job: Sendable {
  var name: JobName { get }
  func run(_ context: JobContext) async throws
  /// The job as a dry run runs it. Its writes need no stand-in (the dry run rolls them back);
  /// a call that is paid or reaches outside the database does: one that only counts.
  var forDryRun: any Job { get }
}

extension Job {
  public var forDryRun: any Job { self }
}
