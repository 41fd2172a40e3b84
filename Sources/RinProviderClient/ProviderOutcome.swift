/// How one bulk request ended, after its retries.
public enum ProviderOutcome: Sendable, Equatable {
  /// The provider answered: per-key results (keys it did not answer are absent).
  case answered(results: [String: ProviderItemResult], unknownIDs: Int, duplicateIDs: Int)
  /// No usable answer within the retry budget, or an answer that retrying cannot fix: the keys
  /// stay uncached for the next run.
  case gaveUp(ProviderFailure)
  /// 401 or 403: the API key is not accepted; no later request can do better.
  case refused(status: Int)
  /// The run is stopping.
  case cancelled
  /// The circuit breaker is open: the keys were not asked for (or not again), and wait for the
  /// next run.
  case deferred

  var isAnswered: Bool {
    if case .answered = self { return true }
    return false
  }
}

public enum ProviderFailure: Sendable, Equatable, CustomStringConvertible {
  case serverError(status: Int)
  case timedOut
  case malformedBody
  case unreachable
  /// A 4xx other than 401, 403 and 429: the request itself is refused.
  case clientError(status: Int)
  /// Still 429 after every retry.
  case rateLimited
  /// A 429 asked for a longer wait than a run is willing to sit through.
  case rateLimitWaitTooLong(seconds: Double)
  /// The provider redirected to another origin, which is not followed (`HTTPTransportError`).
  case redirected(from: String, to: String)

  /// What says the provider cannot answer at all (and counts towards opening the circuit
  /// breaker), as opposed to a refusal of this request or back-pressure (429).
  public var isProviderDown: Bool {
    switch self {
    case .serverError, .timedOut, .malformedBody, .unreachable, .redirected: true
    case .clientError, .rateLimited, .rateLimitWaitTooLong: false
    }
  }

  public var description: String {
    switch self {
    case .serverError(let status): "HTTP \(status)"
    case .timedOut: "timed out"
    case .malformedBody: "malformed body"
    case .unreachable: "unreachable"
    case .clientError(let status): "HTTP \(status)"
    case .rateLimited: "rate limited"
    case .rateLimitWaitTooLong(let seconds): "rate limited for \(Int(seconds)) s"
    case .redirected(let from, let to): "redirected from \(from) to \(to), not followed"
    }
  }
}
