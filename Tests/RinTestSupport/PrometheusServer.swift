import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Debian's `prometheus` on a free loopback port with the repository's alert rules loaded,
/// scraping one Pushgateway every second and evaluating the rules every second, its data in a
/// folder of the test's own.
package final class PrometheusServer: Sendable {
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// One alert as `/api/v1/alerts` lists it.
  package struct Alert: Sendable, Decodable {
    package var labels: [String: String]
    package var state: String
  }

  private struct AlertsAnswer: Decodable {
    struct Data: Decodable { var alerts: [Alert] }
    var status: String
    var data: Data
  }

  package static let binary = "/usr/bin/prometheus"
  package let port: Int
  private let process: BackgroundProcess
  private let directory: TemporaryDirectory

  package init(scraping pushgateway: Pushgateway, rules: String) async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
      throw Failure(
        description:
          "\(Self.binary) is not installed: scripts/setup.sh installs it (Debian package prometheus)")
    }
    directory = try TemporaryDirectory()
    let config = directory.path("prometheus.yml")
    // honor_labels: the pushed series' own `job` label (the rin-jobs job) is kept, as
    // deploy/prometheus/README.md tells operators to scrape the Pushgateway.
    try """
    global:
      scrape_interval: 1s
      evaluation_interval: 1s
    rule_files: ["\(rules)"]
    scrape_configs:
      - job_name: pushgateway
        honor_labels: true
        static_configs: [{targets: ["127.0.0.1:\(pushgateway.port)"]}]
    """.write(toFile: config, atomically: true, encoding: .utf8)
    port = try LoopbackPort.free()
    process = try BackgroundProcess(
      executable: URL(fileURLWithPath: Self.binary),
      [
        "--config.file=\(config)", "--storage.tsdb.path=\(directory.path("data"))",
        "--web.listen-address=127.0.0.1:\(port)",
      ])
    guard
      try await process.waitForOutput(matching: "Server is ready to receive web requests", timeout: 120)
        != nil
    else {
      let output = process.text
      process.stop()
      throw Failure(description: "Prometheus did not start on port \(port): \(output)")
    }
  }

  /// Every alert pending or firing now.
  package func alerts() async throws -> [Alert] {
    let url = URL(string: "http://127.0.0.1:\(port)/api/v1/alerts")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let answer = try JSONDecoder().decode(AlertsAnswer.self, from: data)
    guard answer.status == "success" else {
      throw Failure(description: "GET \(url): status \(answer.status)")
    }
    return answer.data.alerts
  }

  /// Whether `name` fires for a series whose labels include `labels`.
  package func isFiring(_ name: String, _ labels: [String: String]) async throws -> Bool {
    try await alerts().contains { alert in
      alert.state == "firing" && alert.labels["alertname"] == name
        && labels.allSatisfy { alert.labels[$0.key] == $0.value }
    }
  }

  /// Polls until `isFiring(name, labels)` is `firing`; false if it is not so after `timeout`
  /// seconds (a scrape and an evaluation take 2 s here; the bound is only for a broken setup).
  package func waitUntil(
    _ name: String, _ labels: [String: String], firing: Bool, timeout: Double = 90
  ) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if try await isFiring(name, labels) == firing { return true }
      guard Date() < deadline else { return false }
      try await Task.sleep(nanoseconds: 250_000_000)
    }
  }

  deinit { process.stop() }
}
