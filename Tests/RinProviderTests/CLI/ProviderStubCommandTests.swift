import Foundation
import RinProviderClient
import RinTestSupport
import Testing

@Suite("rinjobs-dev provider-stub", .onItsOwnThread)
struct ProviderStubCommandTests {
  static let listening = "listening on (http://127\\.0\\.0\\.1:[0-9]+)"

  @Test func servesDeterministicFakePeopleOnLoopback() async throws {
    let server = try BackgroundProcess("rinjobs-dev", ["provider-stub", "--port", "0"])
    defer { server.stop() }
    let url = try #require(
      try await server.waitForOutput(matching: Self.listening), "\(server.text)")
    let client = ProviderClient(
      settings: ProviderClientSettings(
        baseURL: try #require(URL(string: url)), apiKey: "any-token", requestsPerMinute: 6000,
        timeout: .seconds(5),
        maxRetries: 0))
    let lookups = (0..<40).map { ProviderLookup(id: "key-\($0)", channel: .email("person\($0)@example.com")) }
    let first = await client.lookup(lookups)
    let second = await client.lookup(lookups)
    #expect(first == second)
    guard case .answered(let results, 0, 0) = first else {
      Issue.record("expected an answer, got \(first)")
      return
    }
    #expect(results.count == 40)
    let matches = results.values.filter { if case .match = $0 { true } else { false } }.count
    #expect((10...34).contains(matches), "\(matches) matches of 40")
    #expect(results.values.contains(.noMatch))
  }

  @Test func refusesAWrongTokenWhenToldWhichToAccept() async throws {
    let server = try BackgroundProcess(
      "rinjobs-dev", ["provider-stub", "--port", "0", "--api-key-env", "STUB_KEY"],
      environment: ["STUB_KEY": "right"])
    defer { server.stop() }
    let url = try #require(
      try await server.waitForOutput(matching: Self.listening), "\(server.text)")
    for (key, expected) in [("wrong", ProviderOutcome.refused(status: 401)), ("right", nil)] {
      let client = ProviderClient(
        settings: ProviderClientSettings(
          baseURL: try #require(URL(string: url)), apiKey: key, requestsPerMinute: 6000, timeout: .seconds(5),
          maxRetries: 0))
      let outcome = await client.lookup([ProviderLookup(id: "k", channel: .phone("+14155550123"))])
      if let expected { #expect(outcome == expected) } else { #expect(outcome != .refused(status: 401)) }
    }
  }
}
