import RinDomain
import RinRuntime

/// enrichment-fetch's details (docs/JOBS.md "enrichment-fetch"): counts only, no key, number or
/// address. A count the run did not take is nil, and left out of the summary.
public struct EnrichmentFetchDetails: JobDetails {
  /// The provider's name, or `none (Rin-network source only)`.
  @AsText public var provider: String? = nil
  @AsText public var cacheHits: Int? = nil
  /// A dry run's: keys a real run would ask for, and the fewest requests that takes.
  @AsText public var wouldBeLookups: Int? = nil
  @AsText public var wouldBeRequestsAtLeast: Int? = nil
  @AsText public var lookupsRequested: Int? = nil
  @AsText public var providerRequests: Int? = nil
  @AsText public var matches: Int? = nil
  @AsText public var noMatches: Int? = nil
  @AsText public var keysLeftForNextRun: Int? = nil
  // What went wrong or was left, each only when not zero.
  @AsText public var providerRetries: Int? = nil
  @AsText public var rateLimited: Int? = nil
  @AsText public var timeouts: Int? = nil
  @AsText public var serverErrors: Int? = nil
  @AsText public var malformedBodies: Int? = nil
  @AsText public var unreachable: Int? = nil
  @AsText public var keysDeferred: Int? = nil
  @AsText public var unknownIDsIgnored: Int? = nil
  @AsText public var keysUnansweredInResponses: Int? = nil
  @AsText public var duplicateIDsIgnored: Int? = nil
  @AsText public var requestsStoppedByDailyLimit: Int? = nil
  @AsText public var keysAnsweredByOtherWorkers: Int? = nil
  @AsText public var keysLeftClaimedByOtherWorkers: Int? = nil
  @AsText public var longestWaitForOtherWorkersMS: Int? = nil
  /// Requests that gave up, by cause: `requests_given_up (CAUSE)`.
  public var requestsGivenUp: [String: Int] = [:]
  /// Contacts whose inputs, settings and cached answers were as at their last check.
  @AsText public var contactsUnchanged: Int? = nil
  /// Owners none of whose inputs changed: their contacts were not read.
  @AsText public var ownersUnchanged: Int? = nil
  /// Whether the provider's circuit breaker let the run ask it.
  @AsText public var providerAvailable: Bool? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case provider, cacheHits = "cache_hits", wouldBeLookups = "would_be_lookups"
    case wouldBeRequestsAtLeast = "would_be_requests_at_least", lookupsRequested = "lookups_requested"
    case providerRequests = "provider_requests", matches, noMatches = "no_matches"
    case keysLeftForNextRun = "keys_left_for_next_run", providerRetries = "provider_retries"
    case rateLimited = "rate_limited", timeouts, serverErrors = "server_errors"
    case malformedBodies = "malformed_bodies", unreachable, keysDeferred = "keys_deferred"
    case unknownIDsIgnored = "unknown_ids_ignored", keysUnansweredInResponses = "keys_unanswered_in_responses"
    case duplicateIDsIgnored = "duplicate_ids_ignored"
    case requestsStoppedByDailyLimit = "requests_stopped_by_daily_limit"
    case keysAnsweredByOtherWorkers = "keys_answered_by_other_workers"
    case keysLeftClaimedByOtherWorkers = "keys_left_claimed_by_other_workers"
    case longestWaitForOtherWorkersMS = "longest_wait_for_other_workers_ms"
    case contactsUnchanged = "contacts_unchanged", ownersUnchanged = "owners_unchanged"
    case providerAvailable = "provider_available"
  }

  public var keyedTexts: [String: String] {
    var texts: [String: String] = [:]
    for (cause, count) in requestsGivenUp { texts[Self.givenUpKey(cause)] = String(count) }
    return texts
  }

  public mutating func readKeyedTexts(_ texts: [String: String]) {
    for (key, text) in texts where key.hasPrefix(Self.givenUpPrefix) && key.hasSuffix(")") {
      guard let count = Int(text) else { continue }
      requestsGivenUp[String(key.dropFirst(Self.givenUpPrefix.count).dropLast())] = count
    }
  }

  static let givenUpPrefix = "requests_given_up ("

  static func givenUpKey(_ cause: String) -> String { givenUpPrefix + cause + ")" }
}
