import Foundation
import RinJobs
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// Issue 21: with the provider down, `rin-enrichment-fetch` stops asking after
  /// `circuit_breaker.failures` failures, defers the other keys, still writes the Rin-network
  /// links, ends within the bound, and says the provider was unavailable everywhere an operator
  /// looks. Real executables, a real stub on loopback, both backends.
  @Suite("enrichment-fetch with the provider down")
  struct EnrichmentOutageTests {
    @Test(arguments: Backend.available, OutageFixture.Outage.allCases)
    func aRunStopsAskingDefersTheRestAndSaysTheProviderWasUnavailable(
      backend: Backend, outage: OutageFixture.Outage
    ) async throws {
      let f = try await OutageFixture.make(backend, outage: outage)
      defer { Task { await f.stop() } }
      let wanted = try await f.keysWanted()
      // Enough requests that asking for every key would take minutes when each one times out.
      try #require(wanted > 40 * f.batchSize)

      let (result, summary, seconds) = try await f.fetch()
      #expect(result.exitCode == 0, "the job did what it could: \(result.stderr)")
      #expect(summary.status == .succeeded)
      #expect(seconds < OutageFixture.boundSeconds, "ran \(seconds) s")

      // Asked at most the breaker's failures plus the requests in flight beside them.
      let asked = try #require(summary.details[EnrichmentFetchDetails.self].providerRequests)
      let allowed = OutageFixture.failures + OutageFixture.concurrency
      #expect(asked >= OutageFixture.failures / 2, "the failures that open it were asked (with retries)")
      #expect(asked <= allowed, "asked \(asked)")
      if outage != .closedPort { #expect(f.stub.requestCount <= allowed) }

      // Every key is left for the next run; all but those of the requests sent were not even asked.
      let provider = try #require(summary.provider)
      #expect(!provider.available)
      #expect(provider.cause == Self.cause(outage))
      #expect(summary.details[EnrichmentFetchDetails.self].keysLeftForNextRun == wanted)
      #expect(provider.keysDeferred >= wanted - allowed * f.batchSize)
      #expect(summary.details[EnrichmentFetchDetails.self].keysDeferred == provider.keysDeferred)
      #expect(summary.details[EnrichmentFetchDetails.self].providerAvailable == false)
      #expect(try f.db.int("SELECT count(*) FROM enrichment_lookups") == 0)

      // The Rin-network source ran to the end: a run without provider finds no link to add.
      let links = try f.rinNetworkLinks()
      #expect(!links.isEmpty)
      let plain = try await f.rinNetworkOnlyRun()
      #expect(plain.exitCode == 0, "\(plain.stderr)")
      #expect(try f.rinNetworkLinks() == links)

      // A handful of log lines, not one per request: the opening, the give-ups, the end.
      let lines = OutageFixture.logLines(result)
      #expect(lines.count <= 5, "\(lines.joined(separator: "\n"))")
      #expect(lines.filter { $0.contains("circuit breaker open") }.count == 1)

      // The ledger, the metrics file and status say so too.
      let ledger = try #require(try f.ledgerCounts().last)
      #expect(ledger.contains(#""available":false"#), "\(ledger)")
      #expect(ledger.contains(#""provider_available":"false""#))
      #expect(f.metricsText.contains(#"rinjobs_provider_up{provider="acme"} 0"#), "\(f.metricsText)")
      #expect(try Promtool.checkMetrics(atPath: f.metrics) == nil)
      #expect(
        f.metricsText.contains(#"rinjobs_provider_keys_deferred{provider="acme"} \#(provider.keysDeferred)"#))
      let (status, _) = try await f.run("rinjobs", ["status", "--now", "2026-11-22T13:00:00Z"])
      #expect(status.stdout.contains("DEGRADED: provider acme unavailable"), "\(status.stdout)")
      #expect(status.stdout.contains("provider acme: UNAVAILABLE since 2026-11-22T12:00:00Z"))
      let (statusJSON, _) = try await f.run("rinjobs", ["status", "--now", "2026-11-22T13:00:00Z", "--json"])
      #expect(statusJSON.stdout.contains(#""available":false"#), "\(statusJSON.stdout)")
    }

    static func cause(_ outage: OutageFixture.Outage) -> String {
      switch outage {
      case .closedPort: "unreachable"
      case .serverErrors: "HTTP 503"
      case .neverAnswers: "timed out"
      }
    }

    @Test(arguments: Backend.available)
    func whenTheProviderComesBackTheNextRunProbesClosesTheBreakerAndFetchesEachDeferredKeyOnce(
      backend: Backend
    ) async throws {
      // Larger requests: the run that comes back asks for every key.
      let f = try await OutageFixture.make(backend, outage: .serverErrors, batchSize: 100)
      defer { Task { await f.stop() } }
      let wanted = try await f.keysWanted()
      let down = try await f.fetch()
      #expect(down.summary.provider?.available == false)
      let askedWhileDown = f.stub.requestCount

      // Back up, but within cool_down (10m) of the opening: no request at all.
      f.stub.setDefaultBehaviour(.answer)
      let cooling = try await f.fetch(now: "2026-11-22T12:05:00Z")
      #expect(cooling.result.exitCode == 0)
      #expect(f.stub.requestCount == askedWhileDown, "within the cool-down the provider is left alone")
      #expect(cooling.summary.provider?.available == false)
      #expect(cooling.summary.provider?.keysDeferred == wanted)
      #expect(
        cooling.summary.provider?.openedAt == "2026-11-22T12:00:00Z", "the cool-down counts from the opening")

      // After the cool-down: one probe, alone (held half a second), then everything else.
      f.stub.enqueue(.slow(seconds: 0.5))
      let back = try await f.fetch(now: "2026-11-22T12:10:00Z")
      #expect(back.result.exitCode == 0, "\(back.result.stderr)")
      let provider = try #require(back.summary.provider)
      #expect(provider.available)
      #expect(provider.keysDeferred == 0)
      #expect(back.summary.details[EnrichmentFetchDetails.self].keysLeftForNextRun == 0)
      let records = Array(f.stub.records.dropFirst(askedWhileDown))
      try #require(records.count >= 2)
      #expect(
        records.dropFirst().allSatisfy { $0.receivedAt >= records[0].receivedAt + 0.5 },
        "nothing else was sent while the probe was out")
      let askedBack = records.flatMap(\.ids)
      #expect(Set(askedBack).count == wanted, "every deferred key was asked for")
      #expect(askedBack.count == wanted, "once each")
      #expect(try f.db.int("SELECT count(*) FROM enrichment_lookups") == wanted, "and cached")
      let lines = OutageFixture.logLines(back.result)
      #expect(lines.filter { $0.contains("circuit breaker closed") }.count == 1, "\(lines)")
      #expect(f.metricsText.contains(#"rinjobs_provider_up{provider="acme"} 1"#), "\(f.metricsText)")
      let (status, _) = try await f.run("rinjobs", ["status", "--now", "2026-11-22T13:00:00Z"])
      #expect(status.stdout.contains("provider acme: up"), "\(status.stdout)")
      #expect(!status.stdout.contains("DEGRADED"))
    }

    @Test(arguments: Backend.available)
    func aFailedProbeReopensTheBreakerAfterOneRequest(backend: Backend) async throws {
      let f = try await OutageFixture.make(backend, outage: .serverErrors)
      defer { Task { await f.stop() } }
      let wanted = try await f.keysWanted()
      _ = try await f.fetch()
      let asked = f.stub.requestCount
      let again = try await f.fetch(now: "2026-11-22T12:30:00Z")
      #expect(again.result.exitCode == 0)
      #expect(f.stub.requestCount == asked + 1, "one probe, no retry")
      #expect(again.summary.provider?.available == false)
      #expect(again.summary.provider?.openedAt == "2026-11-22T12:30:00Z", "a new cool-down starts")
      #expect(again.summary.details[EnrichmentFetchDetails.self].keysLeftForNextRun == wanted)
    }
  }
}

extension EnrichmentEndToEnd.EnrichmentOutageTests {
  /// The nightly goes on: enrichment-fetch ends within the bound and the three jobs after it run.
  @Test(arguments: Backend.available)
  func withTheProviderDownTheNightlyPipelineRunsAllFourJobsWithinTheBound(backend: Backend) async throws {
    let f = try await OutageFixture.make(backend, outage: .neverAnswers)
    defer { Task { await f.stop() } }
    let (result, seconds) = try await f.run(
      "rinjobs",
      ["pipeline", "run", "nightly", "--now", OutageFixture.now, "--json", "--metrics-file", f.metrics])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(seconds < OutageFixture.boundSeconds, "ran \(seconds) s")
    let report = try #require(JSONText.decode(PipelineReport.self, from: result.stdout), "\(result.stdout)")
    let jobs = try #require(report.runs.last?.jobs)
    #expect(
      jobs.map(\.job.rawValue) == ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"])
    #expect(jobs.allSatisfy { $0.status == .succeeded })
    #expect(jobs.first?.provider?.available == false)
    #expect(f.stub.requestCount <= OutageFixture.failures + OutageFixture.concurrency)
    #expect(f.metricsText.contains(#"rinjobs_provider_up{provider="acme"} 0"#), "\(f.metricsText)")
    #expect(OutageFixture.logLines(result).count <= 12, "\(result.stderr.prefix(3000))")
  }
}

extension OutageFixture {
  /// `rinjobs run enrichment-fetch --db` with built-in defaults (no provider), from a folder
  /// without a `pipelines.yaml`.
  func rinNetworkOnlyRun() async throws -> Executable.Result {
    let folder = db.directory.path("no-config")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let db = self.db.path
    return try await offPool {
      try Executable.runBlocking(
        "rinjobs", ["run", "enrichment-fetch", "--db", db, "--now", "2026-11-22T12:01:00Z"], in: folder)
    }
  }
}
