import Foundation
import RinProviderStub

/// The loopback provider stub enrichment-fetch talks to in the reliability tests, started by
/// the test (in its process, so that it can read the stub's per-key request counts).
final class ReliabilityProvider: Sendable {
  static let keyVariable = "RIN_RELIABILITY_PROVIDER_KEY"

  let stub: ProviderStub?

  private init(stub: ProviderStub?) { self.stub = stub }

  /// A stub for enrichment-fetch; none for the other jobs.
  static func start(for job: String) async throws -> ReliabilityProvider {
    ReliabilityProvider(stub: job == "enrichment-fetch" ? try await ProviderStub.start(port: 0) : nil)
  }

  /// `jobs:` with `batch_size` users per batch for every job, and the stub as provider.
  func jobsYAML(batchSize: Int, deleteBatchSize: Int) -> String {
    var yaml = """
      jobs:
        daily-score: {batch_size: \(batchSize)}
        circle-patterns: {batch_size: \(batchSize)}
        upcoming-birthdays: {batch_size: \(batchSize)}
        attribution-expiry: {delete_batch_size: \(deleteBatchSize)}
        badge-recount: {batch_size: \(batchSize)}
      """
    if let stub {
      yaml += """

          enrichment-fetch:
            batch_size: \(batchSize)
            provider:
              name: stub-people
              url: \(stub.baseURL)
              api_key_env: \(Self.keyVariable)
              batch_size: 5
              requests_per_minute: 100000
              max_retries: 0
        """
    }
    return yaml
  }

  /// Requests per lookup key so far.
  var requestsPerKey: [String: Int] { stub?.requestsPerKey ?? [:] }

  /// Keys requested more than once since `before`.
  func keysRequestedTwice(since before: [String: Int]) -> Int {
    requestsPerKey.filter { $0.value - (before[$0.key] ?? 0) > 1 }.count
  }

  func stop() async { await stub?.stop() }
}
