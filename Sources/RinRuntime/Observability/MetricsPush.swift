import Foundation
import Logging
import RinDomain
import RinHTTP
import RinStorage

/// Sends a run's metrics (the `--metrics-file` text) to a Prometheus Pushgateway when the run
/// ends. Each subject of the run (a job, or `pipeline:NAME`) is its own group, keyed by job,
/// pipeline and shard, so the shards of one slot and the jobs of one pipeline never replace
/// each other's series, and a `job` label in the text always agrees with the group's (the
/// Pushgateway rejects a push whose labels contradict its grouping key). Each push is a PUT: it
/// replaces the group whole, so a series the last run no longer has goes too.
///
/// A push that fails is retried twice, then logged (without the URL, which may carry
/// credentials) and counted in `failedPushes`; it never changes the run's exit code.
public struct MetricsPush: Sendable {
  /// One Pushgateway group: the grouping key's values and the text to store under it.
  public struct Group: Sendable {
    public var job: String
    /// Empty for a job run on its own.
    public var pipeline: String
    /// `K/N`, or `all` for an unsharded run.
    public var shard: String
    public var text: String

    public init(job: String, pipeline: String, shard: String, text: String) {
      self.job = job
      self.pipeline = pipeline
      self.shard = shard
      self.text = text
    }
  }

  public struct Outcome: Sendable, Equatable {
    public var pushedGroups = 0
    public var failedPushes = 0
  }

  let baseURL: URL
  let logger: Logger
  var transport: any HTTPTransport = URLSessionTransport()
  static let timeoutSeconds = 5.0
  static let attempts = 3

  public init(baseURL: URL, logger: Logger) {
    self.baseURL = baseURL
    self.logger = logger
  }

  /// The shard label of a run: `K/N` as resolved (an `auto/N` shard reads the completion
  /// index), `all` for a run over every user.
  public static func shardLabel(_ shard: ShardSpec?, environment: [String: String]) -> String {
    guard let shard else { return "all" }
    switch shard.resolve(environment: environment) {
    case .success(let resolved): return resolved.description
    case .failure: return shard.description
    }
  }

  /// `BASE/metrics/job@base64/…/pipeline@base64/…/shard@base64/…`: base64 (URL-safe) carries
  /// any value, a `/` in `0/2` or an empty pipeline (`=`), as the Pushgateway's API allows.
  public func url(for group: Group) -> URL {
    var url = baseURL.appendingPathComponent("metrics")
    for (name, value) in [("job", group.job), ("pipeline", group.pipeline), ("shard", group.shard)] {
      url = url.appendingPathComponent("\(name)@base64").appendingPathComponent(Self.base64URL(value))
    }
    return url
  }

  static func base64URL(_ value: String) -> String {
    guard !value.isEmpty else { return "=" }
    return Data(value.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  }

  /// Pushes every group; returns how many went and how many failed after their retries.
  public func push(_ groups: [Group]) async -> Outcome {
    var outcome = Outcome()
    for group in groups {
      if await push(group) { outcome.pushedGroups += 1 } else { outcome.failedPushes += 1 }
    }
    return outcome
  }

  private func push(_ group: Group) async -> Bool {
    let request = HTTPTransportRequest(
      url: url(for: group), headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
      body: Data(group.text.utf8), method: "PUT")
    var cause = ""
    for attempt in 1...Self.attempts {
      do {
        let response = try await transport.send(request, timeout: .seconds(Self.timeoutSeconds))
        if (200..<300).contains(response.status) { return true }
        // The Pushgateway says why it refused (an inconsistent label, bad text): worth logging.
        let reason = String(decoding: response.body.prefix(300), as: UTF8.self)
          .trimmingCharacters(in: .whitespacesAndNewlines)
        cause = "HTTP \(response.status)\(reason.isEmpty ? "" : ": \(reason)")"
        // A refusal is the same on every attempt; only a server error or no answer is retried.
        if response.status < 500 { break }
      } catch {
        switch error {
        case .timedOut: cause = "no answer within \(Int(Self.timeoutSeconds)) s"
        case .unreachable(let why): cause = "unreachable: \(why)"
        case .cancelled: cause = "cancelled"
        case .redirected(let from, let to): cause = "redirected from \(from) to \(to), not followed"
        }
      }
      guard attempt < Self.attempts else { break }
      try? await Task.sleep(nanoseconds: UInt64(attempt) * 500_000_000)
    }
    logger.warning(
      "metrics push to the Pushgateway failed (\(cause)); the run's outcome stands. Check metrics.push_url (or --metrics-push) and that the Pushgateway is up.",
      metadata: ["job": "\(group.job)", "pipeline": "\(group.pipeline)", "shard": "\(group.shard)"])
    return false
  }
}
