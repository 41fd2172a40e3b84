import Foundation
import RinJobs
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

/// A seeded database, a provider that is down in one of three ways, and the real executables
/// run against it (issue 21). Processes run on threads of their own (`offPool`): the stub in this
/// process keeps its threads.
final class OutageFixture: Sendable {
  /// How the provider is down.
  enum Outage: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// Nothing listens on the port: every connection is refused at once.
    case closedPort
    /// Every request is answered 503.
    case serverErrors
    /// Every request is read and never answered: each one waits out the timeout.
    case neverAnswers

    var testDescription: String { rawValue }
  }

  static let apiKeyVariable = "RIN_TEST_OUTAGE_KEY"
  static let provider = "acme"
  /// The settings of the report (timeout 1s, max_retries 1) with small requests, so
  /// that a run without the breaker would send a few hundred of them.
  static let failures = 10
  static let concurrency = 4
  /// Keys per request in the outage tests: small, so that a run without the breaker would
  /// send a thousand requests.
  static let outageBatchSize = 2
  /// The bound the tests assert on one run's wall time (docs/JOBS.md "When the provider is
  /// down"): generous for a loaded machine. Without the breaker the never-answering case of
  /// this database takes minutes.
  static let boundSeconds = 90.0
  static let now = "2026-11-22T12:00:00Z"

  let db: TestDatabase
  let stub: ProviderStub
  let config: String
  let metrics: String
  let batchSize: Int

  private init(db: TestDatabase, stub: ProviderStub, config: String, batchSize: Int) {
    self.db = db
    self.stub = stub
    self.config = config
    self.batchSize = batchSize
    metrics = db.directory.path("rin.prom")
  }

  /// `outage` nil: a stub that answers (to be made to fail by the test).
  /// A seeded user has a few hundred keys: 4 users give about two thousand.
  static func make(_ backend: Backend, outage: Outage?, users: Int = 4, batchSize: Int = outageBatchSize)
    async throws -> OutageFixture
  {
    let db = try await offPool { try TestDatabase(backend, seedUsers: users, seed: 21) }
    let stub = try await ProviderStub.start(apiKey: "outage-secret", fallback: .fakePeople, keepRecords: true)
    switch outage {
    case .serverErrors: stub.setDefaultBehaviour(.status(503))
    case .neverAnswers: stub.setDefaultBehaviour(.neverAnswer)
    case .closedPort, nil: break
    }
    // Port 9 (discard) as in the report: nothing listens there on a test machine.
    let url = outage == .closedPort ? "http://127.0.0.1:9" : stub.baseURL
    let path = try TestConfigFile.write(
      """
      jobs:
        enrichment-fetch:
          provider:
            name: \(provider)
            url: \(url)
            api_key_env: \(apiKeyVariable)
            batch_size: \(batchSize)
            concurrency: \(concurrency)
            requests_per_minute: 6000
            timeout: 1s
            max_retries: 1
            circuit_breaker:
              failures: \(failures)
              cool_down: 10m
      \(TestConfigFile.nightlyPipeline)

      """, storageURL: db.path, in: db.directory)
    return OutageFixture(db: db, stub: stub, config: path, batchSize: batchSize)
  }

  func stop() async { await stub.stop() }

  /// One process of `executable` with this fixture's config and key, and its wall time.
  func run(_ executable: String, _ arguments: [String]) async throws -> (Executable.Result, seconds: Double) {
    let arguments = arguments + ["--config", config]
    return try await offPool {
      let started = Date()
      let result = try Executable.runBlocking(
        executable, arguments, environment: [Self.apiKeyVariable: "outage-secret", "RIN_LOG_LEVEL": "info"])
      return (result, Date().timeIntervalSince(started))
    }
  }

  /// `rin-enrichment-fetch --json` at `now`, its summary decoded.
  func fetch(now: String = OutageFixture.now) async throws -> (
    result: Executable.Result, summary: RunSummary, seconds: Double
  ) {
    let (result, seconds) = try await run(
      "rin-enrichment-fetch", ["--now", now, "--json", "--metrics-file", metrics])
    let summary = try #require(
      JSONText.decode(RunSummary.self, from: result.stdout),
      "stdout: \(result.stdout) stderr: \(result.stderr)")
    return (result, summary, seconds)
  }

  /// Every key a run could ask the provider for: what a dry run counts.
  func keysWanted() async throws -> Int {
    let (result, _) = try await run("rin-enrichment-fetch", ["--now", Self.now, "--json", "--dry-run"])
    let summary = try #require(JSONText.decode(RunSummary.self, from: result.stdout), "\(result.stderr)")
    return try #require(summary.details[EnrichmentFetchDetails.self].wouldBeLookups)
  }

  /// The enrichment ledger row's `counts` column, newest first.
  func ledgerCounts() throws -> [String] {
    try db.strings(
      "SELECT coalesce(counts, '') FROM job_runs WHERE job = 'enrichment-fetch' AND dry_run = 0 ORDER BY id DESC"
    )
  }

  var metricsText: String { (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? "" }

  /// Rin-network links in the database: what the run must write whatever the provider does.
  func rinNetworkLinks() throws -> Set<String> {
    Set(
      try db.strings(
        "SELECT contact_id || '|' || value FROM contact_enrichments WHERE source = 'rin_network' AND field = 'rin_user'"
      ))
  }

  /// The lines the run logged (stderr, JSON lines).
  static func logLines(_ result: Executable.Result) -> [String] {
    result.stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }
}
