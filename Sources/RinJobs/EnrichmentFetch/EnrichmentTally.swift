import Logging
import RinDomain
import RinProviderClient
import RinRuntime

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
  func addWouldBeDetails(provider: ProviderPlan, to details: inout EnrichmentFetchDetails) {
    details.provider = provider.name
    details.cacheHits = cacheHits
    details.wouldBeLookups = wouldBeLookups
    details.wouldBeRequestsAtLeast = (wouldBeLookups + provider.batchSize - 1) / provider.batchSize
  }

  /// A real run's: what it asked for and what came back; what went wrong only when it did.
  func addDetails(
    provider: ProviderPlan, statistics: ProviderStatistics, to details: inout EnrichmentFetchDetails
  ) {
    details.provider = provider.name
    details.cacheHits = cacheHits
    details.lookupsRequested = keysRequested
    details.providerRequests = statistics.requests
    details.matches = matches
    details.noMatches = noMatches
    details.keysLeftForNextRun = keysLeftForNextRun
    let nonZero = { (count: Int) in count > 0 ? count : nil }
    details.providerRetries = nonZero(statistics.retries)
    details.rateLimited = nonZero(statistics.rateLimited)
    details.timeouts = nonZero(statistics.timeouts)
    details.serverErrors = nonZero(statistics.serverErrors)
    details.malformedBodies = nonZero(statistics.malformedBodies)
    details.unreachable = nonZero(statistics.unreachable)
    details.keysDeferred = nonZero(keysDeferred)
    details.unknownIDsIgnored = nonZero(unknownIDs)
    details.keysUnansweredInResponses = nonZero(keysUnansweredInResponses)
    details.duplicateIDsIgnored = nonZero(duplicateIDs)
    details.requestsStoppedByDailyLimit = nonZero(statistics.stoppedByDailyLimit)
    details.keysAnsweredByOtherWorkers = nonZero(answeredByOtherWorkers)
    details.keysLeftClaimedByOtherWorkers = nonZero(keysLeftClaimedByOtherWorkers)
    details.longestWaitForOtherWorkersMS = nonZero(Int(longestWaitForOtherWorkers.wholeMilliseconds))
    details.requestsGivenUp.merge(failures) { $1 }
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
