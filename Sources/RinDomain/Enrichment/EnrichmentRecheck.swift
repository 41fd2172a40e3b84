/// When enrichment-fetch may leave a contact alone: it was checked under the same settings, it
/// has not changed since (same fingerprint), its cached answers have not expired, and none of
/// its numbers can be a verified Rin user's. Such a contact would get exactly the writes it
/// already has, so skipping it changes nothing but the time a night takes.
public struct EnrichmentCheck: Sendable, Equatable {
  public var fingerprint: Int64
  /// The settings that decide a contact's values (provider name, min_likelihood), as text.
  public var settings: String
  /// When its earliest cached answer expires (or an unanswered key makes it due again); nil
  /// when nothing it has expires (no provider, or nothing to look up).
  public var dueAt: Int64?

  public init(fingerprint: Int64, settings: String, dueAt: Int64?) {
    self.fingerprint = fingerprint
    self.settings = settings
    self.dueAt = dueAt
  }

  public static func isUnchanged(
    stored: EnrichmentCheck?, now current: EnrichmentCheck, at instant: Int64, mayBeRinUser: Bool
  ) -> Bool {
    guard let stored, !mayBeRinUser else { return false }
    guard stored.fingerprint == current.fingerprint, stored.settings == current.settings else { return false }
    return stored.dueAt.map { $0 > instant } ?? true
  }

  /// The next time a contact whose keys are cached until `expiries` must be looked at: the
  /// earliest expiry; `instant` itself (the next run) when a key got no answer.
  public static func dueAt(expiries: [Int64?], at instant: Int64) -> Int64? {
    var due: Int64?
    for expiry in expiries {
      guard let expiry, expiry > instant else { return instant }
      due = min(due ?? expiry, expiry)
    }
    return due
  }
}
