import Foundation
import RinDomain
import RinHTTP
import Synchronization

/// The provider's bulk protocol (docs/CONTRACT.md §3.3): one `lookup` is one request of at most
/// `batch_size` keys, paced by the shared rate limit, retried within `max_retries`, and sent
/// only while the circuit breaker lets it: once the provider looks down, the run stops asking.
public final class ProviderClient: Sendable {
  public let settings: ProviderClientSettings
  private let transport: any HTTPTransport
  private let pacer: RequestPacer
  private let shared: (any SharedRequestTurns)?
  private let stats = Mutex(ProviderStatistics())
  private let breaker: Mutex<CircuitBreaker>
  private let onBreakerChange: @Sendable (CircuitBreaker.Transition) -> Void
  private let wallClock: WallClock

  /// - Parameters:
  ///   - breakerState: where the previous runs left the breaker (`CircuitBreaker.startState`).
  ///   - onBreakerChange: told when the breaker opens or closes, on whichever task saw it.
  ///   - sharedTurns: the rate and budget this client shares with other workers, if any.
  ///   - wallClock: what a `Retry-After` date is compared with.
  public init(
    settings: ProviderClientSettings, transport: any HTTPTransport = URLSessionTransport(),
    wallClock: WallClock = .system,
    breakerState: CircuitBreaker.State = .closed(consecutiveFailures: 0),
    sharedTurns: (any SharedRequestTurns)? = nil,
    onBreakerChange: @escaping @Sendable (CircuitBreaker.Transition) -> Void = { _ in }
  ) {
    self.settings = settings
    self.transport = transport
    pacer = RequestPacer(requestsPerMinute: settings.requestsPerMinute)
    shared = sharedTurns
    breaker = Mutex(CircuitBreaker(threshold: settings.breakerFailures, state: breakerState))
    self.onBreakerChange = onBreakerChange
    self.wallClock = wallClock
  }

  public var statistics: ProviderStatistics { stats.withLock { $0 } }

  /// The breaker as it stands now.
  public var circuitBreaker: CircuitBreaker { breaker.withLock { $0 } }

  public func lookup(_ lookups: [ProviderLookup]) async -> ProviderOutcome {
    let request = HTTPTransportRequest(
      url: settings.endpoint,
      headers: [
        "Authorization": "Bearer \(settings.apiKey)", "Content-Type": "application/json",
        "Accept": "application/json",
      ],
      body: ProviderRequestBody.encode(lookups))
    let requested = Set(lookups.map(\.id))
    var retries = 0
    while true {
      let failure: ProviderFailure
      do {
        try await pacer.acquire()
        guard try await takeSharedTurn(lookups: lookups.count) else {
          count { $0.stoppedByDailyLimit += 1 }
          return .deferred
        }
        guard try await mayAsk() else { return .deferred }
        count { $0.requests += 1 }
        let response = try await transport.send(request, timeout: settings.timeout)
        switch await handle(response, requested: requested, retries: retries) {
        case .done(let outcome):
          settle(outcome.isAnswered ? .success : .neutral)
          return outcome
        case .retry(let why):
          settle(why.isProviderDown ? .failure(why) : .neutral)
          failure = why
        }
      } catch let error as HTTPTransportError {
        switch error {
        case .cancelled: return .cancelled
        case .timedOut:
          count { $0.timeouts += 1 }
          failure = .timedOut
        case .unreachable:
          count { $0.unreachable += 1 }
          failure = .unreachable
        case .redirected(let from, let to):
          // Asking again gets the same redirect: the URL in the settings is wrong.
          settle(.failure(.redirected(from: from, to: to)))
          return .gaveUp(.redirected(from: from, to: to))
        }
        settle(.failure(failure))
      } catch {
        return .cancelled
      }
      guard retries < settings.maxRetries else { return .gaveUp(failure) }
      // Retrying into an open breaker would only wait: the keys go to the next run now.
      guard !circuitBreaker.isOpen else { return .deferred }
      retries += 1
      count { $0.retries += 1 }
      if case .rateLimited = failure { continue }  // the pacer already holds every request back
      do {
        try await sleepUnlessBreakerOpens(for: .seconds(settings.backoff.delay(beforeRetry: retries)))
      } catch {
        return .cancelled
      }
    }
  }

  /// Waits for this request's turn among all workers; false when the day's budget is spent.
  private func takeSharedTurn(lookups: Int) async throws -> Bool {
    guard let shared else { return true }
    guard let wait = try await shared.take(lookups: lookups) else { return false }
    if wait > .zero { try await Task.sleep(for: wait) }
    return true
  }

  /// Asks the breaker whether this exchange may go; while another task's probe is in flight,
  /// waits for its answer. Polling: a probe is one exchange per run, so a short sleep is cheap.
  private func mayAsk() async throws -> Bool {
    while true {
      switch breaker.withLock({ $0.permit() }) {
      case .send, .sendProbe: return true
      case .refuse: return false
      case .wait: try await Task.sleep(nanoseconds: 20_000_000)
      }
    }
  }

  private func settle(_ result: CircuitBreaker.Result) {
    if let transition = breaker.withLock({ $0.record(result) }) { onBreakerChange(transition) }
  }

  /// Sleeps a retry's backoff in short steps, so that a breaker opened meanwhile by another
  /// request ends the wait (and the run) at once instead of after up to `backoff.cap`.
  private func sleepUnlessBreakerOpens(for delay: Duration) async throws {
    let end = ContinuousClock.now + delay
    while ContinuousClock.now < end, !circuitBreaker.isOpen {
      try await Task.sleep(until: min(end, ContinuousClock.now + .milliseconds(100)), clock: .continuous)
    }
  }

  private enum Step {
    case done(ProviderOutcome)
    case retry(ProviderFailure)
  }

  private func handle(_ response: HTTPTransportResponse, requested: Set<String>, retries: Int) async -> Step {
    switch response.status {
    case 200:
      guard let parsed = try? ProviderResponseParser.parse(response.body, requested: requested) else {
        count { $0.malformedBodies += 1 }
        return .retry(.malformedBody)
      }
      return .done(
        .answered(results: parsed.results, unknownIDs: parsed.unknownIDs, duplicateIDs: parsed.duplicateIDs))
    case 429:
      count { $0.rateLimited += 1 }
      let asked = RateLimitWait.seconds(headers: response.headers, now: wallClock.secondsSince1970)
      let wait = asked ?? settings.backoff.delay(beforeRetry: retries + 1)
      // Compared as seconds: a header may ask for more than a `Duration` holds.
      guard wait <= settings.maxRateLimitWait / .seconds(1) else {
        return .done(.gaveUp(.rateLimitWaitTooLong(seconds: wait)))
      }
      count { $0.longestRateLimitWait = max($0.longestRateLimitWait, wait) }
      await pacer.holdAll(for: .seconds(wait))
      try? await shared?.holdAll(for: .seconds(wait))
      return .retry(.rateLimited)
    case 401, 403:
      return .done(.refused(status: response.status))
    case 500...599:
      count { $0.serverErrors += 1 }
      return .retry(.serverError(status: response.status))
    default:
      return .done(.gaveUp(.clientError(status: response.status)))
    }
  }

  private func count(_ update: (inout ProviderStatistics) -> Void) {
    stats.withLock { update(&$0) }
  }
}
