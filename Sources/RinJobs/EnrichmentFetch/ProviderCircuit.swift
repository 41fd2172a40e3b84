import Logging
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// The job's side of the provider's circuit breaker: where earlier runs left it (table
/// `provider_breakers`), what this run keeps there for the next one, and what it reports.
struct ProviderCircuit {
  let provider: String
  let coolDown: Duration
  let now: UTCInstant
  let runID: RunID
  /// What the last real run left; nil when no run has recorded this provider yet.
  let stored: ProviderBreakerRecord?
  /// Whether the row says open right now (written the moment the breaker opens, so that a run
  /// killed afterwards still leaves the next one its cool-down).
  private var recordedOpen: Bool

  static func load(provider: String, coolDown: Duration, context: JobContext) throws -> ProviderCircuit {
    let stored = try context.read { try $0.runtime.providerBreaker(provider: provider) }
    return ProviderCircuit(
      provider: provider, coolDown: coolDown, now: context.now, runID: context.runID, stored: stored,
      recordedOpen: stored?.isOpen ?? false)
  }

  var startState: CircuitBreaker.State {
    CircuitBreaker.startState(
      openedAt: stored.flatMap { $0.isOpen ? $0.openedAt : nil }, now: now, coolDown: coolDown)
  }

  /// Told by the client when the breaker closes: that happens once per outage, at the probe.
  func breakerChanged(_ transition: CircuitBreaker.Transition, logger: Logger) {
    guard case .closed = transition else { return }  // an opening is logged at the end, with its count
    logger.info(
      "enrichment provider answered the probe: circuit breaker closed; asking for keys again",
      metadata: [
        "provider": "\(provider)", "was_open_since": "\(stored?.openedAt?.description ?? "-")",
        "cause": "\(stored?.cause ?? "-")",
      ])
  }

  /// The breaker's health as `breaker` stands: open since when, for what.
  func health(_ breaker: CircuitBreaker, keysDeferred: Int) -> ProviderHealth {
    guard case .open(let cause) = breaker.state, let openedAt = openedAt(breaker) else {
      return ProviderHealth(provider: provider, available: true, keysDeferred: keysDeferred)
    }
    return ProviderHealth(
      provider: provider, available: false,
      cause: cause?.description ?? stored?.cause ?? "circuit breaker open",
      keysDeferred: keysDeferred, openedAt: openedAt.description,
      nextProbeAfter: (openedAt + coolDown).description)
  }

  /// Opened by this run (it saw a failure: now), or still open from an earlier run; nil when closed.
  private func openedAt(_ breaker: CircuitBreaker) -> UTCInstant? {
    guard case .open(let cause) = breaker.state else { return nil }
    return cause == nil ? (stored?.openedAt ?? now) : now
  }

  /// Records an opening as soon as a batch saw it.
  mutating func recordIfOpened(_ breaker: CircuitBreaker, keysDeferred: Int, context: JobContext) throws {
    guard breaker.isOpen, !recordedOpen else { return }
    try save(health(breaker, keysDeferred: keysDeferred), openedAt: openedAt(breaker), context: context)
  }

  /// Keeps the run's final state for the next run and for `status`, and logs the opening.
  mutating func finish(_ breaker: CircuitBreaker, keysDeferred: Int, context: JobContext) throws
    -> ProviderHealth
  {
    let health = health(breaker, keysDeferred: keysDeferred)
    try save(health, openedAt: openedAt(breaker), context: context)
    if !health.available {
      context.logger.warning(
        "enrichment provider unavailable: circuit breaker open; keys not answered are left for the next run",
        metadata: [
          "provider": "\(provider)", "cause": "\(health.cause ?? "-")", "keys_deferred": "\(keysDeferred)",
          "open_since": "\(health.openedAt ?? "-")", "next_probe_after": "\(health.nextProbeAfter ?? "-")",
        ])
    }
    return health
  }

  private mutating func save(_ health: ProviderHealth, openedAt: UTCInstant?, context: JobContext) throws {
    try context.write {
      try $0.runtime.saveProviderBreaker(
        ProviderBreakerRecord(
          provider: provider, isOpen: !health.available, openedAt: openedAt,
          cause: health.cause, keysDeferred: health.keysDeferred, runID: runID,
          updatedAt: now))
    }
    recordedOpen = !health.available
  }
}
