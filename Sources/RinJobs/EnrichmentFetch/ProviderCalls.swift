import RinConfiguration
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// How a run reaches the paid provider: a real run asks it (`PaidProviderCalls`); a dry run gets
/// a stand-in that counts the keys it would ask for and calls nothing (`CountedProviderCalls`).
protocol ProviderCalls: Sendable {
  /// Where earlier runs left the provider's circuit breaker, kept up to date by this run; nil
  /// when this run neither reads nor moves it.
  func circuit(_ provider: EnrichmentProviderSettings, context: JobContext) throws -> ProviderCircuit?
  /// Where workers share the provider's rate and daily budget; nil when nothing is sent.
  func sharedAllowance(_ context: JobContext) -> Storage?
  /// Asks for the keys no cache row answers until their owners' next visit (`expired`: those
  /// whose row exists; `neededUntil`: the latest of those visits, past which an answer found in
  /// the cache meanwhile is another worker's of tonight).
  func lookUp(
    _ missing: [ProviderLookup], expired: Set<String>, neededUntil: UTCInstant, plan: ProviderPlan,
    context: JobContext, tally: inout EnrichmentTally) async throws
  /// The provider's lines in the run's details.
  func addDetails(_ tally: EnrichmentTally, plan: ProviderPlan, to details: inout EnrichmentFetchDetails)
}

/// A real run's calls: paid lookups, the shared allowance, the circuit breaker.
struct PaidProviderCalls: ProviderCalls {
  func circuit(_ provider: EnrichmentProviderSettings, context: JobContext) throws -> ProviderCircuit? {
    try ProviderCircuit.load(
      provider: provider.name, coolDown: provider.circuitBreaker.coolDown,
      context: context)
  }

  func sharedAllowance(_ context: JobContext) -> Storage? { context.storage }

  func lookUp(
    _ missing: [ProviderLookup], expired: Set<String>, neededUntil: UTCInstant, plan: ProviderPlan,
    context: JobContext, tally: inout EnrichmentTally
  ) async throws {
    // Shard workers share many keys (a person in several books): each is asked by the worker
    // that claims it first. A worker asks its own claims first, releasing each request's as it
    // ends, and only then waits, briefly, for the answers to the others: a worker waiting for
    // keys this one claimed is never kept waiting by this one's wait.
    let claims = ProviderKeyClaims(provider: plan.name, context: context, neededUntil: neededUntil)
    let mine = try claims.claim(missing.map(\.id), tally: &tally)
    do {
      try await ProviderFetcher(plan: plan, context: context, claims: claims)
        .fetch(missing.filter { mine.contains($0.id) }, expired: expired, tally: &tally)
    } catch {
      claims.releaseAfterFailure(Array(mine))
      throw error
    }
    try await claims.awaitAnswers(
      missing.map(\.id).filter { !mine.contains($0) }, longest: plan.longestWaitForOtherWorkers,
      tally: &tally)
  }

  func addDetails(_ tally: EnrichmentTally, plan: ProviderPlan, to details: inout EnrichmentFetchDetails) {
    tally.addDetails(provider: plan, statistics: plan.client.statistics, to: &details)
  }
}

/// A dry run's stand-in: sends nothing, and neither reads nor moves the circuit breaker or the
/// shared allowance; it counts the keys a real run would ask for.
struct CountedProviderCalls: ProviderCalls {
  func circuit(_ provider: EnrichmentProviderSettings, context: JobContext) throws -> ProviderCircuit? { nil }

  func sharedAllowance(_ context: JobContext) -> Storage? { nil }

  func lookUp(
    _ missing: [ProviderLookup], expired: Set<String>, neededUntil: UTCInstant, plan: ProviderPlan,
    context: JobContext, tally: inout EnrichmentTally
  ) async throws {
    // What the real run would cache here, a later batch would find: count each key once.
    let keys = missing.map(\.id)
    tally.wouldBeLookups += try context.write { try $0.rememberDryRunKeys(keys) }
  }

  func addDetails(_ tally: EnrichmentTally, plan: ProviderPlan, to details: inout EnrichmentFetchDetails) {
    tally.addWouldBeDetails(provider: plan, to: &details)
  }
}
