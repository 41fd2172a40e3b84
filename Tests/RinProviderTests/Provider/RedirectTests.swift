import Foundation
import RinConfiguration
import RinHTTP
import RinJobs
import RinProviderStub
import RinTestSupport
import Testing

/// Issue 52 item 1: a redirect to another origin is not followed, so the provider's key and the
/// contacts' emails and phones (the pings' token, the Pushgateway's credentials) never reach a
/// host they were not meant for. 127.0.0.2 is a second host on Linux's loopback.
@Suite("outgoing HTTP follows no redirect to another origin", .onItsOwnThread)
struct RedirectTests {
  static func receivers() async throws -> (first: PingReceiver, second: PingReceiver) {
    let second = try await PingReceiver.start(host: "127.0.0.2")
    let first = try await PingReceiver.start(redirectingTo: second.baseURL + "/redirected/stolen")
    return (first, second)
  }

  @Test func aCrossOriginRedirectIsAnErrorNamingBothHostsAndTheSecondHostSeesNothing() async throws {
    let (first, second) = try await Self.receivers()
    defer {
      Task {
        await first.stop(); await second.stop()
      }
    }
    let request = HTTPTransportRequest(
      url: URL(string: first.baseURL + "/v1/person/bulk?secret-path")!,
      headers: ["Authorization": "Bearer sk-redirect-test"], body: Data(#"{"email":"ada@example.com"}"#.utf8))
    await #expect(
      throws: HTTPTransportError.redirected(
        from: "http://127.0.0.1:\(first.port)", to: "http://127.0.0.2:\(second.port)")
    ) {
      _ = try await URLSessionTransport().send(request, timeout: .seconds(5))
    }
    #expect(first.pings.count == 1)
    #expect(second.pings.isEmpty, "the second host got \(second.pings)")
  }

  @Test func aRedirectWithinTheOriginIsFollowedWithItsHeaders() async throws {
    let receiver = try await PingReceiver.start(redirectingTo: "/redirected/here")
    defer { Task { await receiver.stop() } }
    let request = HTTPTransportRequest(
      url: URL(string: receiver.baseURL + "/ping")!, headers: ["Authorization": "Bearer t"],
      body: Data("x".utf8))
    let response = try await URLSessionTransport().send(request, timeout: .seconds(5))
    #expect(response.status == 200)
    #expect(receiver.pings.map(\.path) == ["/ping", "/redirected/here"])
    #expect(receiver.pings.last?.authorization == "Bearer t")
  }

  @Test(arguments: Backend.available) func enrichmentFetchSendsNoKeyOrContactToTheRedirectedHost(
    backend: Backend
  ) async throws {
    let (first, second) = try await Self.receivers()
    defer {
      Task {
        await first.stop(); await second.stop()
      }
    }
    let f = try await EnrichmentFixture.make(backend)
    defer { Task { await f.stop() } }
    var config = f.config()
    config.jobs[EnrichmentFetchJob.self].provider?.url = first.baseURL
    let logs = CapturedLogs()
    _ = await f.run(config: config, logs: logs)
    #expect(!first.pings.isEmpty)
    #expect(first.pings.allSatisfy { $0.authorization == "Bearer \(EnrichmentFixture.apiKey)" })
    #expect(second.pings.isEmpty, "the second host got \(second.pings.count) requests")
    #expect(
      logs.text.contains("redirected from http://127.0.0.1:\(first.port) to http://127.0.0.2:\(second.port)"),
      "\(logs.text)")
    #expect(!logs.text.contains("/redirected/stolen"), "the path is not named")
  }

  @Test func aProviderURLMustBeHTTPSUnlessOnLoopback() throws {
    func yaml(_ url: String) -> String {
      """
      jobs:
        enrichment-fetch:
          provider: {name: acme, url: "\(url)", api_key_env: KEY}
      """
    }
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse(
        yaml: yaml("http://enrich.example.com"), file: "p.yaml", jobs: JobCatalog.settings)
    }
    #expect(error?.description.hasPrefix("p.yaml:3:") == true, "\(String(describing: error))")
    #expect(error?.message.contains("must be https") == true)
    for url in [
      "https://enrich.example.com", "http://127.0.0.1:8080", "http://localhost:9", "http://[::1]:9",
    ] {
      #expect(throws: Never.self) {
        try ConfigLoader.parse(yaml: yaml(url), file: "p.yaml", jobs: JobCatalog.settings)
      }
    }
  }
}
