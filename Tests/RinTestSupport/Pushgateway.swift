import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Debian's `prometheus-pushgateway` (scripts/setup.sh installs it) on a free loopback port, in
/// memory only, for as long as the test holds it. Debian's build persists to
/// /var/lib/prometheus/pushgateway.data unless told otherwise: every test's gateway would load
/// the groups the previous ones (and any run by hand) left there, hence `--persistence.file=`.
package final class Pushgateway: Sendable {
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  package static let binary = "/usr/bin/prometheus-pushgateway"
  package let port: Int
  private let process: BackgroundProcess

  package var url: String { "http://127.0.0.1:\(port)" }

  package init() async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
      throw Failure(
        description:
          "\(Self.binary) is not installed: scripts/setup.sh installs it (Debian package prometheus-pushgateway)"
      )
    }
    port = try LoopbackPort.free()
    process = try BackgroundProcess(
      executable: URL(fileURLWithPath: Self.binary),
      ["--web.listen-address=127.0.0.1:\(port)", "--persistence.file="])
    guard try await process.waitForOutput(matching: "Listening on", timeout: 60) != nil else {
      let output = process.text
      process.stop()
      throw Failure(description: "the Pushgateway did not start on port \(port): \(output)")
    }
  }

  /// Its `/metrics` page: every pushed series with the grouping key's labels, and its own.
  package func metrics() async throws -> String {
    let (data, response) = try await URLSession.shared.data(from: URL(string: "\(url)/metrics")!)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw Failure(description: "GET \(url)/metrics answered \(String(describing: response))")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The `rinjobs_` series of `/metrics` whose labels include every one of `labels`
  /// (`job="…"` and so on), one line each, in the Pushgateway's order.
  package func series(_ name: String, with labels: [String]) async throws -> [String] {
    try await metrics().split(separator: "\n").map(String.init).filter { line in
      line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) }
    }
  }

  deinit { process.stop() }
}
