import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinHTTP

/// Sends a pipeline run's `notify` pings: one short POST per event, with the run id, slot,
/// status, exit code and duration as JSON, a 5 s timeout and two retries. A ping that still
/// fails is logged (without its URL, which often holds the check's secret) and never changes the
/// run's outcome.
struct PipelinePings: Sendable {
  enum Event: String, Sendable { case start, success, failure }

  /// The slot in ISO 8601, as the pings always carried it.
  struct Body: Encodable {
    var event: String
    var pipeline: PipelineName
    var runID: RunID?
    @AsText var slot: UTCInstant?
    var status: String
    var exitCode: Int32?
    var durationSeconds: Double?
  }

  let notify: PipelineNotify
  let token: String?
  let logger: Logger
  var transport: any HTTPTransport = URLSessionTransport()
  static let timeoutSeconds = 5.0
  static let attempts = 3

  init(_ notify: PipelineNotify, environment: RuntimeEnvironment, logger: Logger) {
    self.notify = notify
    self.logger = logger
    token = notify.tokenEnv.flatMap { environment.variables[$0] }.flatMap { $0.isEmpty ? nil : $0 }
    if let name = notify.tokenEnv, token == nil {
      logger.warning("notify.token_env names \(name), which is not set: pings go without a token")
    }
  }

  func url(for event: Event) -> URL? {
    switch event {
    case .start: notify.start
    case .success: notify.success
    case .failure: notify.failure
    }
  }

  func send(_ event: Event, _ body: Body) async {
    guard let url = url(for: event) else { return }
    var headers = ["Content-Type": "application/json"]
    if let token { headers["Authorization"] = "Bearer \(token)" }
    let request = HTTPTransportRequest(
      url: url, headers: headers, body: Data((JSONText.encode(body) ?? "{}").utf8))
    var cause = ""
    for attempt in 1...Self.attempts {
      do {
        let response = try await transport.send(request, timeout: .seconds(Self.timeoutSeconds))
        if (200..<300).contains(response.status) { return }
        cause = "HTTP \(response.status)"
      } catch {
        cause = "\(error)"
      }
      guard attempt < Self.attempts else { break }
      try? await Task.sleep(nanoseconds: UInt64(attempt) * 500_000_000)
    }
    logger.warning(
      "notify \(event.rawValue) ping failed after \(Self.attempts) attempts (\(cause)); the run goes on",
      metadata: ["pipeline": "\(body.pipeline)"])
  }
}
