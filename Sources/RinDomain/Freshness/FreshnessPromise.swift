/// What an output promises each live user (docs/OPERATIONS.md "Freshness"): a user created at
/// least `maxAge` ago sees a result no older than `maxAge`; for the outputs of jobs that skip
/// unchanged owners, also an examination within `fullEvery` (plus `maxAge`).
public struct FreshnessPromise: Sendable, Equatable {
  public var output: FreshnessOutput
  public var maxAge: Duration
  /// circle-patterns' and enrichment-fetch's `full_every`: every owner is examined that often.
  public var fullEvery: Duration?
  /// How the default was derived ("24h between nightly's slots + 2h"), nil when configured.
  public var derivation: String?

  public init(
    output: FreshnessOutput, maxAge: Duration, fullEvery: Duration? = nil, derivation: String? = nil
  ) {
    self.output = output
    self.maxAge = maxAge
    self.fullEvery = fullEvery
    self.derivation = derivation
  }

  /// The instant `maxAge` before `now`: a result computed at or before it is stale.
  public func cutoff(now: UTCInstant) -> UTCInstant { now - maxAge }

  /// Users created at or before this instant are promised a result; a newer user is still
  /// waiting for their first night, which is not stale.
  public func promisedCreatedBy(now: UTCInstant) -> UTCInstant { cutoff(now: now) }

  /// An examination at or before this instant is older than `fullEvery` allows.
  public func examinationCutoff(now: UTCInstant) -> UTCInstant {
    cutoff(now: now) - (fullEvery ?? .zero)
  }
}
