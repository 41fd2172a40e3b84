import ArgumentParser
import Foundation
import RinCLI
import RinProviderStub
import RinRuntime

/// `rinjobs-dev provider-stub --port P`: the enrichment provider's bulk API on loopback with
/// deterministic fake people, to try enrichment-fetch without a real provider.
struct ProviderStubCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "provider-stub",
    abstract: "Serve a fake enrichment provider on 127.0.0.1 (deterministic data) until stopped.",
    discussion: """
      Point jobs.enrichment-fetch.provider.url at the printed URL. The same key always gets the \
      same answer: about 60 % matches (likelihood 3-10), the rest per-item 404s.
      """)

  @Option(help: "The port to listen on; 0 picks a free one.") var port: UInt16 = 8089
  @Option(
    name: .customLong("api-key-env"),
    help: "Accept only the bearer token in this environment variable (default: any non-empty token).")
  var apiKeyEnv: String?
  @Flag(help: "Print one line per request: when it arrived (Unix seconds) and how many keys it carried.")
  var logRequests = false

  func run() async throws {
    try await CLIFailure.reporting("rinjobs-dev provider-stub") {
      var apiKey: String?
      if let apiKeyEnv {
        guard let value = ProcessInfo.processInfo.environment[apiKeyEnv], !value.isEmpty else {
          throw CLIFailure(.configuration, "--api-key-env \(apiKeyEnv): that variable is not set (or empty)")
        }
        apiKey = value
      }
      let stub: ProviderStub
      do {
        stub = try await ProviderStub.start(
          port: port, apiKey: apiKey, fallback: .fakePeople, keepRecords: false,
          onRequest: logRequests ? Self.printRequest : nil)
      } catch {
        throw CLIFailure(.temporary, "cannot listen on 127.0.0.1:\(port) (in use?): \(error)")
      }
      // Unbuffered: whoever started the stub reads the URL from this line at once.
      FileHandle.standardOutput.write(
        Data("provider stub listening on \(stub.baseURL) (POST /v1/person/bulk); Ctrl-C stops it\n".utf8))
      try await stub.wait()
    }
  }

  @Sendable static func printRequest(receivedAt: Double, keys: Int) {
    FileHandle.standardOutput.write(
      Data("request at=\(String(format: "%.6f", receivedAt)) keys=\(keys)\n".utf8))
  }
}
