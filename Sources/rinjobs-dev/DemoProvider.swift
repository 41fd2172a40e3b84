import Foundation
import RinCLI
import RinConfiguration
import RinJobs
import RinProviderStub
import RinRuntime

/// The demo's enrichment provider: the stub on a free loopback port, and a key in an
/// environment variable as production has it. Fast settings: loopback costs nothing.
enum DemoProvider {
  static let apiKeyVariable = "RIN_DEMO_ENRICH_API_KEY"
  /// Not a secret: the stub accepts only this token, so the demo also shows the header at work.
  static let apiKey = "demo-key-not-a-secret"

  static func start(into config: inout RinConfig) async throws -> ProviderStub {
    let stub = try await ProviderStub.start(
      port: 0, apiKey: apiKey, fallback: .fakePeople, keepRecords: false)
    config.jobs[EnrichmentFetchJob.self].provider = EnrichmentProviderSettings(
      name: "demo-people", url: stub.baseURL, apiKeyEnv: apiKeyVariable, batchSize: 100,
      requestsPerMinute: 60_000, concurrency: 8)
    return stub
  }

  static func environment() -> RuntimeEnvironment {
    var variables = ProcessInfo.processInfo.environment
    variables[apiKeyVariable] = apiKey
    return RuntimeEnvironment(variables: variables)
  }
}
