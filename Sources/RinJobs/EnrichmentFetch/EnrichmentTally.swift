import Logging
import RinDomain
import RinProviderClient

/// Run-level counts of the provider source, for the summary's details. Counts only: no key,
/// number or address.
struct EnrichmentTally {
  /// Keys found unexpired in the cache, counted per user batch.
  var cacheHits = 0
  var wouldBeLookups = 0
  var keysRequested = 0
  var matches = 0
  var noMatches = 0
  var keysLeftForNextRun = 0
  /// Keys not asked for (or not asked again) because the circuit breaker was open; also
  /// counted in `keysLeftForNextRun`.
  var keysDeferred = 0
  /// Keys a 200 response left out or answered with an item status other than 200 and 404.
  var keysUnansweredInResponses = 0
  /// Keys another worker claimed and answered while this one waited (`ProviderKeyClaims`).
  var answeredByOtherWorkers = 0
  /// Keys another worker claimed and had not answered when this one stopped waiting for them
  /// (`ProviderTuning.longestWaitForOtherWorkers`); also counted in `keysLeftForNextRun`.
  var keysLeftClaimedByOtherWorkers = 0
  /// The longest a batch of this run waited for answers to keys other workers claimed.
  var longestWaitForOtherWorkers: Duration = .zero
  var unknownIDs = 0
  var duplicateIDs = 0
  var failures: [String: Int] = [:]
  /// Keys that got no answer this run: later batches do not ask for them again.
  var givenUp: Set<String> = []

  /// A dry run's: what it would ask for.
  func wouldBeDetails(provider: ProviderPlan) -> [String: String] {
    var details = ["provider": provider.name, "cache_hits": String(cacheHits)]
    details["would_be_lookups"] = String(wouldBeLookups)
    details["would_be_requests_at_least"] = String(
      (wouldBeLookups + provider.batchSize - 1) / provider.batchSize)
    return details
  }

  /// A real run's: what it asked for and what came back.
  func details(provider: ProviderPlan, statistics: ProviderStatistics) -> [String: String] {
    var details = ["provider": provider.name, "cache_hits": String(cacheHits)]
    details["lookups_requested"] = String(keysRequested)
    details["provider_requests"] = String(statistics.requests)
    details["matches"] = String(matches)
    details["no_matches"] = String(noMatches)
    details["keys_left_for_next_run"] = String(keysLeftForNextRun)
    let extras: [(String, Int)] = [
      ("provider_retries", statistics.retries), ("rate_limited", statistics.rateLimited),
      ("timeouts", statistics.timeouts), ("server_errors", statistics.serverErrors),
      ("malformed_bodies", statistics.malformedBodies), ("unreachable", statistics.unreachable),
      ("keys_deferred", keysDeferred), ("unknown_ids_ignored", unknownIDs),
      ("keys_unanswered_in_responses", keysUnansweredInResponses), ("duplicate_ids_ignored", duplicateIDs),
      ("requests_stopped_by_daily_limit", statistics.stoppedByDailyLimit),
      ("keys_answered_by_other_workers", answeredByOtherWorkers),
      ("keys_left_claimed_by_other_workers", keysLeftClaimedByOtherWorkers),
      ("longest_wait_for_other_workers_ms", Int(longestWaitForOtherWorkers.wholeMilliseconds)),
    ]
    for (name, count) in extras where count > 0 { details[name] = String(count) }
    for (reason, count) in failures { details["requests_given_up (\(reason))"] = String(count) }
    return details
  }

  /// One line for every request that gave up, however many: a provider that fails now and then
  /// must not fill the log (the counts per cause are in the summary's details).
  func logGivenUpRequests(_ logger: Logger) {
    guard !failures.isEmpty else { return }
    let causes = failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    logger.warning(
      "provider requests gave up; their keys are left for the next run",
      metadata: ["requests": "\(failures.values.reduce(0, +))", "causes": "\(causes)"])
  }
}
