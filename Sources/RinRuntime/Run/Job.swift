import RinDomain

/// One of the six batch jobs. Implementations hold no state between runs: everything a run
/// needs comes through the context, and everything it leaves goes through storage.
public protocol Job: Sendable {
  var name: JobName { get }
  func run(_ context: JobContext) async throws
}
