import RinConfiguration
import RinDomain
import RinStorage

extension PipelineStatus {
  /// Adds the health of each provider a job of this pipeline calls behind a circuit breaker
  /// (`JobSettings.guardedProvider`), as the last real run left it. A provider that is down does
  /// not make a problem (exit 1): the runs succeed and retry the deferred keys;
  /// `rinjobs_provider_up` is the metric to alert on.
  public mutating func addProviderHealth(_ pipeline: PipelineConfig, config: RinConfig, storage: Storage)
    throws
  {
    for job in pipeline.jobs {
      guard let provider = config.jobs.settings(for: job)?.guardedProvider,
        !providers.contains(where: { $0.provider == provider.name }),
        let record = try storage.read({ try $0.runtime.providerBreaker(provider: provider.name) })
      else { continue }
      providers.append(
        ProviderHealth(
          provider: record.provider, available: !record.isOpen, cause: record.cause,
          keysDeferred: record.keysDeferred, openedAt: record.openedAt?.description,
          nextProbeAfter: record.openedAt.map { ($0 + provider.coolDown).description }, runID: record.runID))
    }
  }
}
