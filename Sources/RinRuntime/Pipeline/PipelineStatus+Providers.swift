import RinConfiguration
import RinDomain
import RinStorage

extension PipelineStatus {
  /// Adds the health of the provider enrichment-fetch calls, when this pipeline runs it, as the
  /// last real run left it. A provider that is down does not make a problem (exit 1): the runs
  /// succeed and retry the deferred keys; `rinjobs_provider_up` is the metric to alert on.
  public mutating func addProviderHealth(_ pipeline: PipelineConfig, config: RinConfig, storage: Storage)
    throws
  {
    guard pipeline.jobs.contains(.enrichmentFetch), let provider = config.jobs.enrichmentFetch.provider,
      let record = try storage.read({ try $0.runtime.providerBreaker(provider: provider.name) })
    else { return }
    let coolDown = provider.circuitBreaker.coolDown
    providers.append(
      ProviderHealth(
        provider: record.provider, available: !record.isOpen, cause: record.cause,
        keysDeferred: record.keysDeferred, openedAt: record.openedAt?.description,
        nextProbeAfter: record.openedAt.map { ($0 + coolDown).description }, runID: record.runID))
  }
}
