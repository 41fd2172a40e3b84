/// Stops a run from asking a provider that is down. Pure: the client feeds it each exchange's
/// result and asks it before each exchange; nothing here knows about HTTP, clocks or storage.
///
/// - closed: every exchange may go; `threshold` consecutive failures open it.
/// - probing: the previous run left it open and its cool-down is over: exactly one exchange (the
///   probe) may go; its success closes the breaker, its failure opens it again.
/// - open: no exchange goes for the rest of the run; the keys not yet answered wait for the next.
///
/// A failure is what says the provider cannot answer: unreachable, timed out, 5xx, a malformed
/// body. A 429 is back-pressure from a provider that is up: it neither counts nor resets. Any
/// parsed 200 is a success and resets the count.
public struct CircuitBreaker: Sendable, Equatable {
  public enum State: Sendable, Equatable {
    case closed(consecutiveFailures: Int)
    case probing(probeInFlight: Bool)
    /// `cause` is the failure that opened it this run; nil when it was already open at start.
    case open(cause: ProviderFailure?)
  }

  /// What the client may do with the exchange it is about to send.
  public enum Permit: Sendable, Equatable {
    case send
    /// The one probe of a probing breaker: send it, with no retry.
    case sendProbe
    /// The probe is in flight: ask again once it has an answer.
    case wait
    /// The breaker is open: do not send.
    case refuse
  }

  /// How an exchange ended, as far as the provider's health goes.
  public enum Result: Sendable, Equatable {
    case success
    case failure(ProviderFailure)
    /// 429, or an answer that says the request (not the provider) is at fault (4xx).
    case neutral
  }

  /// A change worth a log line.
  public enum Transition: Sendable, Equatable {
    case opened(cause: ProviderFailure, consecutiveFailures: Int)
    case closed
  }

  public let threshold: Int
  public private(set) var state: State

  /// - Parameter threshold: consecutive failures that open the breaker (at least 1).
  public init(threshold: Int, state: State = .closed(consecutiveFailures: 0)) {
    self.threshold = max(threshold, 1)
    self.state = state
  }

  public var isOpen: Bool {
    if case .open = state { return true }
    return false
  }

  /// Waiting for the one probe of a run that starts after a cool-down.
  public var isProbing: Bool {
    if case .probing = state { return true }
    return false
  }

  public mutating func permit() -> Permit {
    switch state {
    case .closed: return .send
    case .probing(probeInFlight: true): return .wait
    case .probing(probeInFlight: false):
      state = .probing(probeInFlight: true)
      return .sendProbe
    case .open: return .refuse
    }
  }

  /// Records the result of an exchange `permit()` let through.
  public mutating func record(_ result: Result) -> Transition? {
    switch (state, result) {
    case (.open, _):
      // An exchange sent before the breaker opened: its answer changes nothing this run.
      return nil
    case (_, .neutral):
      if case .probing = state { state = .probing(probeInFlight: false) }
      return nil
    case (.closed, .success):
      state = .closed(consecutiveFailures: 0)
      return nil
    case (.closed(let failures), .failure(let cause)):
      let count = failures + 1
      guard count >= threshold else {
        state = .closed(consecutiveFailures: count)
        return nil
      }
      state = .open(cause: cause)
      return .opened(cause: cause, consecutiveFailures: count)
    case (.probing, .success):
      state = .closed(consecutiveFailures: 0)
      return .closed
    case (.probing, .failure(let cause)):
      state = .open(cause: cause)
      return .opened(cause: cause, consecutiveFailures: 1)
    }
  }
}
