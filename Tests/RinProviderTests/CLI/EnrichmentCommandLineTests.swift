import Foundation
import RinProviderStub
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// `rin-enrichment-fetch` as cron runs it: a real process, its key in the environment, a real
  /// provider stub on loopback. The processes are awaited without blocking a thread, so the stub
  /// in this test process keeps answering them.
  @Suite("rin-enrichment-fetch executable")
  struct EnrichmentCommandLineTests {
    static func writeConfig(_ f: EnrichmentFixture, concurrency: Int = 2) throws -> String {
      let path = try TestConfigFile.write(
        """
        jobs:
          enrichment-fetch:
            provider:
              name: acme
              url: \(f.stub.baseURL)
              api_key_env: \(EnrichmentFixture.apiKeyVariable)
              batch_size: 3
              concurrency: \(concurrency)
              timeout: 60s
        """, storageURL: f.db.path, in: f.db.directory)
      return path
    }

    static let key = [EnrichmentFixture.apiKeyVariable: EnrichmentFixture.apiKey]
    static let now = "2026-11-22T12:00:00Z"

    @Test(arguments: Backend.available) func runsWithItsKeyFromTheEnvironmentAndDryRunsWithoutARequest(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)

      let missing = try BackgroundProcess("rin-enrichment-fetch", ["--config", config, "--now", Self.now])
      #expect(try await missing.exitStatus() == 78)
      #expect(missing.text.contains(EnrichmentFixture.apiKeyVariable))

      let dry = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now, "--dry-run", "--json"],
        environment: Self.key)
      #expect(try await dry.exitStatus() == 0, "\(dry.text)")
      #expect(dry.text.contains(#""would_be_lookups":"10""#), "\(dry.text)")
      #expect(f.stub.requestCount == 0)

      let real = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now], environment: Self.key)
      #expect(try await real.exitStatus() == 0, "\(real.text)")
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(f.stub.requestCount == 4)
      #expect(!real.text.contains(EnrichmentFixture.apiKey))
    }

    @Test(arguments: Backend.available)
    func killedWithSIGKILLWhileTheProviderHoldsARequestItPaysForNothingTwice(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f, concurrency: 1)
      // Two answers, then a request the provider holds: the process dies waiting for it.
      f.stub.enqueue(.answer, .answer, .slow(seconds: 30))
      let job = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now], environment: Self.key)
      let deadline = Date().addingTimeInterval(60)
      while f.stub.requestCount < 3 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
      try #require(f.stub.requestCount == 3)
      job.stop(signal: SIGKILL)
      #expect(
        try f.db.int("SELECT count(*) FROM enrichment_lookups") == 6, "both answers were cached on arrival")
      #expect(try f.db.int("SELECT count(*) FROM contact_enrichments") == 0)

      let rerun = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now], environment: Self.key)
      #expect(try await rerun.exitStatus() == 0, "\(rerun.text)")
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(try f.outbox() == EnrichmentFixture.expectedOutbox)
      #expect(f.noAnsweredKeyWasRequestedAgain())
      #expect(f.stub.requestCount == 5, "the held request's keys and the last request's, once each")
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'abandoned'") == 1)
    }
  }
}
