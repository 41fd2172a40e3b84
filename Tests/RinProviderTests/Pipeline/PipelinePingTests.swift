import Foundation
import RinProviderStub
import RinTestSupport
import Testing

/// `pipelines.<name>.notify`: pings to a loopback receiver when a run starts, succeeds or fails,
/// through the real executable on both backends; a dead ping URL does not change the exit code.
@Suite("pipeline notify pings", .onItsOwnThread)
struct PipelinePingTests {
  @Test(arguments: Backend.available) func runsPingStartAndTheirOutcome(backend: Backend) async throws {
    let receiver = try await PingReceiver.start()
    defer { Task { await receiver.stop() } }
    let db = try await offPool { try TestDatabase(backend) }
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0)")
    let base = receiver.baseURL
    let config = try TestConfigFile.write(
      """
      jobs:
        enrichment-fetch:
          provider: {name: acme, url: "http://127.0.0.1:9", api_key_env: RIN_PING_TEST_UNSET_KEY}
      pipelines:
        scores:
          schedule: "30 2 * * *"
          jobs: [daily-score, badge-recount]
          notify: {start: "\(base)/start", success: "\(base)/ok", failure: "\(base)/fail", token_env: PING_TOKEN}
        enrich:
          schedule: "0 * * * *"
          jobs: [enrichment-fetch]
          notify: {failure: "\(base)/fail"}
        dead:
          schedule: "0 * * * *"
          jobs: [badge-recount]
          notify: {start: "http://127.0.0.1:9/start", success: "http://127.0.0.1:9/ok"}
      """, in: db.directory)
    func run(_ pipeline: String) async throws -> Executable.Result {
      try await offPool {
        try Executable.runBlocking(
          "rinjobs", ["pipeline", "run", pipeline, "--config", config, "--db", db.path],
          environment: ["PING_TOKEN": "ping-secret"])
      }
    }

    /// A ping is delivered at least once: an attempt answered after its 5 s timeout (a loaded
    /// machine) is sent again, so the receiver may hold the same ping twice in a row.
    func delivered() -> [String] {
      receiver.pings.reduce(into: [PingReceiver.Ping]()) { kept, ping in
        if kept.last != ping { kept.append(ping) }
      }.map(\.path)
    }

    let scores = try await run("scores")
    #expect(scores.exitCode == 0, "\(scores.stderr)")
    #expect(delivered() == ["/start", "/ok"], "\(scores.stderr)")
    #expect(receiver.pings.allSatisfy { $0.method == "POST" && $0.authorization == "Bearer ping-secret" })
    let done = receiver.pings.last?.body ?? ""
    #expect(done.contains("\"status\":\"succeeded\"") && done.contains("\"exit_code\":0"), "\(done)")
    #expect(done.contains("\"run_id\":") && done.contains("\"pipeline\":\"scores\""), "\(done)")

    let enrich = try await run("enrich")
    #expect(enrich.exitCode == 78, "\(enrich.stderr)")
    #expect(delivered() == ["/start", "/ok", "/fail"], "\(enrich.stderr)")
    #expect(receiver.pings.last?.body.contains("\"status\":\"failed\"") == true)
    #expect(receiver.pings.last?.authorization == nil, "no token_env: no token")

    let dead = try await run("dead")
    #expect(dead.exitCode == 0, "a ping that fails never fails the run: \(dead.stderr)")
    #expect(dead.stderr.contains("notify start ping failed after 3 attempts"), "\(dead.stderr)")
    #expect(!dead.stderr.contains("127.0.0.1:9"), "the ping URL is not logged")
  }
}
