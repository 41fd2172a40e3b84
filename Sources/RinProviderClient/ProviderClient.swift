import Foundation
import Synchronization

/// The provider's bulk protocol (DESIGN.md §3.3): one `lookup` is one request of at most
/// `batch_size` keys, paced by the shared rate limit, retried within `max_retries`.
public final class ProviderClient: Sendable {
  public let settings: ProviderClientSettings
  private let transport: any ProviderTransport
  private let pacer: RequestPacer
  private let stats = Mutex(ProviderStatistics())

  public init(settings: ProviderClientSettings, transport: any ProviderTransport = URLSessionTransport()) {
    self.settings = settings
    self.transport = transport
    pacer = RequestPacer(requestsPerMinute: settings.requestsPerMinute)
  }

  public var statistics: ProviderStatistics { stats.withLock { $0 } }

  public func lookup(_ lookups: [ProviderLookup]) async -> ProviderOutcome {
    let request = ProviderHTTPRequest(
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
        count { $0.requests += 1 }
        let response = try await transport.send(request, timeout: settings.timeout)
        switch await handle(response, requested: requested, retries: retries) {
        case .done(let outcome): return outcome
        case .retry(let why): failure = why
        }
      } catch let error as ProviderTransportError {
        switch error {
        case .cancelled: return .cancelled
        case .timedOut:
          count { $0.timeouts += 1 }
          failure = .timedOut
        case .unreachable:
          count { $0.unreachable += 1 }
          failure = .unreachable
        }
      } catch {
        return .cancelled
      }
      guard retries < settings.maxRetries else { return .gaveUp(failure) }
      retries += 1
      count { $0.retries += 1 }
      if case .rateLimited = failure { continue }  // the pacer already holds every request back
      do {
        try await Task.sleep(
          nanoseconds: UInt64(settings.backoff.delay(beforeRetry: retries) * 1_000_000_000))
      } catch {
        return .cancelled
      }
    }
  }

  private enum Step {
    case done(ProviderOutcome)
    case retry(ProviderFailure)
  }

  private func handle(_ response: ProviderHTTPResponse, requested: Set<String>, retries: Int) async -> Step {
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
      let asked = RateLimitWait.seconds(headers: response.headers, now: Date().timeIntervalSince1970)
      let wait = asked ?? settings.backoff.delay(beforeRetry: retries + 1)
      guard wait <= settings.maxRateLimitWait else {
        return .done(.gaveUp(.rateLimitWaitTooLong(seconds: wait)))
      }
      count { $0.longestRateLimitWait = max($0.longestRateLimitWait, wait) }
      await pacer.holdAll(for: wait)
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
