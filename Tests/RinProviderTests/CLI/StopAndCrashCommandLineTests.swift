import Foundation
import RinProviderStub
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// A run stopped hard, as an operator or the host stops it: a second signal while the
  /// provider holds a request, or `kill -9`. The provider stub holds the run mid-batch, so the
  /// stop always lands while the run still has work in flight.
  @Suite("a run stopped at once, or killed")
  struct StopAndCrashCommandLineTests {
    static let now = "2026-11-22T12:00:00Z"

    static func writeConfig(_ f: EnrichmentFixture, timeout: String? = nil) throws -> String {
      let path = try TestConfigFile.write(
        """
        jobs:
          enrichment-fetch:
            \(timeout.map { "timeout: \($0)" } ?? "")
            provider:
              name: acme
              url: \(f.stub.baseURL)
              api_key_env: \(EnrichmentFixture.apiKeyVariable)
              batch_size: 3
              concurrency: 1
              timeout: 60s
        pipelines:
          enrich:
            schedule: "0 12 * * *"
            timezone: UTC
            jobs: [enrichment-fetch]
        """, storageURL: f.db.path, in: f.db.directory)
      return path
    }

    /// Starts `arguments` and waits until the provider holds its second request.
    static func startHeld(_ f: EnrichmentFixture, _ name: String, _ arguments: [String]) async throws
      -> BackgroundProcess
    {
      f.stub.enqueue(.answer, .slow(seconds: 30))
      let process = try BackgroundProcess(name, arguments, environment: EnrichmentCommandLineTests.key)
      let deadline = Date().addingTimeInterval(60)
      while f.stub.requestCount < 2 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
      try #require(f.stub.requestCount == 2, "\(process.text)")
      return process
    }

    static func stopTwice(_ process: BackgroundProcess) async throws -> Int32? {
      process.send(SIGINT)
      _ = try await process.waitForOutput(matching: "stop requested", timeout: 30)
      process.send(SIGINT)
      return try await process.exitStatus(timeout: 30)
    }

    @Test(arguments: Backend.available)
    func aSecondSignalRecordsTheRunInterruptedAndExits75(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)
      let job = try await Self.startHeld(f, "rin-enrichment-fetch", ["--config", config, "--now", Self.now])
      #expect(try await Self.stopTwice(job) == 75, "\(job.text)")
      #expect(try f.db.strings("SELECT status FROM job_runs") == ["interrupted"], "\(job.text)")
      #expect(
        try f.db.strings("SELECT error FROM job_runs").first?.contains("stopped at once by a second signal")
          == true)
      #expect(try f.db.int("SELECT count(*) FROM job_leases") == 0)
      if backend == .sqlite {  // The PostgreSQL snapshot the tests read leaves job_skips out.
        let skips = try f.db.strings("SELECT job || ' ' || reason || ' ' || count FROM job_skips")
        #expect(skips == ["enrichment-fetch signal 1"], "\(job.text)")
      }
    }

    @Test(arguments: Backend.available)
    func aPipelineStoppedByTwoSignalsRunsAgainAtTheNextTrigger(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)
      let scheduled = ["pipeline", "run", "enrich", "--scheduled", "--config", config, "--now", Self.now]
      let first = try await Self.startHeld(f, "rinjobs", scheduled)
      #expect(try await Self.stopTwice(first) == 75, "\(first.text)")
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'running'") == 0)
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'interrupted'") == 2)

      let again = try await Executable.run(
        "rinjobs", scheduled, environment: EnrichmentCommandLineTests.key)
      #expect(again.exitCode == 0, "\(again.stderr)")
      #expect(
        try f.db.int(
          "SELECT count(*) FROM job_runs WHERE job = 'pipeline:enrich' AND status = 'succeeded'") == 1,
        "\(again.stdout)")
    }

    @Test(arguments: Backend.available)
    func aKilledPipelineIsAbandonedByTheNextStatusAndRunAgainByTheNextTrigger(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)
      let scheduled = ["pipeline", "run", "enrich", "--scheduled", "--config", config, "--now", Self.now]
      let killed = try await Self.startHeld(f, "rinjobs", scheduled)
      let pid = killed.pid
      killed.stop(signal: SIGKILL)
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'running'") == 2)

      let status = try await Executable.run(
        "rinjobs", ["status", "--config", config, "--now", "2026-11-22T12:20:00Z"])
      #expect(status.exitCode == 1, "a missed slot: \(status.stdout) \(status.stderr)")
      #expect(status.stdout.contains("abandoned"), "\(status.stdout)")
      #expect(status.stderr.contains("no longer exists on this host") || status.stderr.contains("abandoned"))
      #expect(
        try f.db.strings("SELECT DISTINCT status FROM job_runs WHERE pid = ?", [pid]) == ["abandoned"])

      let again = try await Executable.run(
        "rinjobs", scheduled, environment: EnrichmentCommandLineTests.key)
      #expect(again.exitCode == 0, "\(again.stderr)")
      #expect(!again.stdout.contains("running now"), "\(again.stdout)")
      #expect(
        try f.db.int(
          "SELECT count(*) FROM job_runs WHERE job = 'pipeline:enrich' AND status = 'succeeded'") == 1,
        "\(again.stdout)")
    }

    @Test(arguments: Backend.available)
    func aKilledRunIsAbandonedByTheNextCatchUp(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)
      let killed = try await Self.startHeld(
        f, "rinjobs", ["pipeline", "run", "enrich", "--scheduled", "--config", config, "--now", Self.now])
      killed.stop(signal: SIGKILL)
      let catchUp = try await Executable.run(
        "rinjobs",
        [
          "pipeline", "run", "enrich", "--catch-up", "all", "--max-age", "1d", "--config", config, "--now",
          "2026-11-22T13:00:00Z",
        ], environment: EnrichmentCommandLineTests.key)
      #expect(catchUp.exitCode == 0, "\(catchUp.stderr)")
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'running'") == 0)
      #expect(try f.db.int("SELECT count(*) FROM job_runs WHERE status = 'abandoned'") == 2)
      #expect(
        try f.db.int(
          "SELECT count(*) FROM job_runs WHERE job = 'pipeline:enrich' AND status = 'succeeded'") == 1,
        "\(catchUp.stdout)")
    }

    @Test func aMetricsFileThatCannotBeWrittenAfterASuccessfulRunIsAWarningNotAFailure() async throws {
      let f = try await EnrichmentFixture.make(.sqlite)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f)
      let metrics = f.db.directory.path("m.prom")
      f.stub.enqueue(.answer, .slow(seconds: 2))
      let job = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now, "--metrics-file", metrics],
        environment: EnrichmentCommandLineTests.key)
      let deadline = Date().addingTimeInterval(60)
      while f.stub.requestCount < 2 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
      try #require(f.stub.requestCount == 2, "\(job.text)")
      // Past the check before the run: the path is now a folder, which the rename cannot replace.
      // (The temporary file's name is random since issue 52: nobody can plant anything there.)
      try FileManager.default.createDirectory(atPath: metrics, withIntermediateDirectories: false)
      #expect(try await job.exitStatus() == 0, "\(job.text)")
      #expect(job.text.contains("warning: \(metrics): cannot write the metrics file"), "\(job.text)")
      #expect(job.text.contains("it is a folder"), "\(job.text)")
      #expect(!job.text.contains("NSCocoaErrorDomain"))
      #expect(try f.db.strings("SELECT status FROM job_runs") == ["succeeded"])
    }

    /// `jobs.enrichment-fetch.timeout` holds while the provider holds a request: the batch cannot
    /// end, so some seconds past the limit the process stops at once, keeping the answer it had.
    @Test(arguments: Backend.available)
    func aTimeLimitHoldsWhileTheProviderHoldsTheBatch(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let config = try Self.writeConfig(f, timeout: "2s")
      f.stub.enqueue(.answer, .slow(seconds: 300))
      let job = try BackgroundProcess(
        "rin-enrichment-fetch", ["--config", config, "--now", Self.now],
        environment: EnrichmentCommandLineTests.key)
      // Far less than the provider's 300 s and the client's 60 s timeout with its retries.
      #expect(try await job.exitStatus(timeout: 50) == 75, "\(job.text)")
      #expect(f.stub.requestCount == 2, "\(job.text)")
      #expect(try f.db.strings("SELECT status FROM job_runs") == ["interrupted"])
      let error = try f.db.strings("SELECT error FROM job_runs").first ?? ""
      #expect(error.hasPrefix("timeout: jobs.enrichment-fetch.timeout (2s) reached"), "\(error)")
      #expect(try f.db.int("SELECT count(*) FROM enrichment_lookups") == 3, "the answer received is kept")
      #expect(try f.db.int("SELECT count(*) FROM job_leases") == 0)
      job.stop(signal: SIGKILL)
    }
  }
}
