import RinDomain

/// How a run found its external provider: up, or unavailable with its circuit breaker open.
/// Reported in `--json` (`provider`), the ledger row's counts, the metrics file
/// (`rinjobs_provider_up`, `rinjobs_provider_keys_deferred`) and, from `provider_breakers`, `status`.
public struct ProviderHealth: Sendable, Codable, Equatable {
  public var provider: String
  /// False when the circuit breaker was open when the run ended: the provider did not answer.
  public var available: Bool
  /// What opened the breaker ("unreachable", "timed out", "HTTP 503", …); nil when available.
  public var cause: String?
  /// Keys this run did not ask for (or not again) because the breaker was open: the next run
  /// asks for them.
  public var keysDeferred: Int
  /// When the breaker opened (UTC, the job clock of the run that opened it).
  public var openedAt: String?
  /// From when a run sends the one probe request (`circuit_breaker.cool_down` after opening).
  public var nextProbeAfter: String?
  /// The run that recorded this (in `status`, which reads it from `provider_breakers`).
  public var runID: RunID?
  /// True when the run stopped asking because `max_lookups_per_day` was reached; nil when the
  /// run did not say (`status`).
  public var dailyLimitReached: Bool?

  public init(
    provider: String, available: Bool, cause: String? = nil, keysDeferred: Int = 0, openedAt: String? = nil,
    nextProbeAfter: String? = nil, runID: RunID? = nil
  ) {
    self.provider = provider
    self.available = available
    self.cause = cause
    self.keysDeferred = keysDeferred
    self.openedAt = openedAt
    self.nextProbeAfter = nextProbeAfter
    self.runID = runID
  }
}
