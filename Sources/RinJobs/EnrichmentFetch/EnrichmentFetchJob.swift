import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// DESIGN.md §3.3: links contacts to the Rin users they are (Rin network, no network calls),
/// then fills company, title and birthday from the external provider, paying for each lookup
/// key at most once per cache lifetime.
public struct EnrichmentFetchJob: Job {
  public let name = JobName.enrichmentFetch
  let normalizer: any ContactNormalizing
  let tuning: ProviderTuning

  public init(
    normalizer: any ContactNormalizing = RinContactNormalizer(), tuning: ProviderTuning = ProviderTuning()
  ) {
    self.normalizer = normalizer
    self.tuning = tuning
  }

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs.enrichmentFetch
    let plan = try ProviderPlan.make(settings.provider, environment: context.environment, tuning: tuning)
    if plan == nil {
      context.logger.info(
        "no enrichment provider configured (jobs.enrichment-fetch.provider): running the Rin-network source only"
      )
      context.details["provider"] = "none (Rin-network source only)"
    }
    let applier = EnrichmentApplier(
      provider: plan.map { ($0.name, $0.minLikelihood) }, now: context.now, runID: context.runID)
    var tally = EnrichmentTally()
    try await context.forEachUserBatch(
      batchSize: settings.batchSize,
      prepare: { ids in
        let rows = try context.read { try $0.enrichmentContacts(of: ids) }
        let prepared = await PreparedBatch.make(rows, normalizer: normalizer, forProvider: plan != nil)
        if let plan { try await lookUp(prepared, plan: plan, context: context, tally: &tally) }
        return prepared
      },
      { batch, prepared in try applier.apply(batch, prepared) })
    if let plan {
      context.details.merge(
        tally.details(dryRun: context.dryRun, provider: plan, statistics: plan.client.statistics)
      ) { $1 }
    }
  }

  /// Asks the provider for the batch's keys that have no unexpired cache row (a dry run only
  /// counts them).
  private func lookUp(
    _ prepared: PreparedBatch, plan: ProviderPlan, context: JobContext, tally: inout EnrichmentTally
  ) async throws {
    let wanted = prepared.providerLookups
    let expiries = try context.read { try $0.lookupExpiries(provider: plan.name, keys: Array(wanted.keys)) }
    let missing = wanted.values.filter { lookup in
      guard let expiresAt = expiries[lookup.id], expiresAt > context.now else {
        return !tally.givenUp.contains(lookup.id)
      }
      tally.cacheHits += 1
      return false
    }.sorted { $0.id < $1.id }
    guard !missing.isEmpty else { return }
    if context.dryRun {
      // What the real run would cache here, a later batch would find: count each key once.
      let keys = missing.map(\.id)
      tally.wouldBeLookups += try context.write { try $0.rememberDryRunKeys(keys) }
      return
    }
    try await ProviderFetcher(plan: plan, context: context)
      .fetch(missing, expired: Set(expiries.keys), tally: &tally)
  }
}
