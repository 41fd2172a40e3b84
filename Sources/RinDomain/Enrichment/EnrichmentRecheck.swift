/// When enrichment-fetch may leave a contact alone: it was checked under the same settings, it
/// has not changed since (same fingerprint), its cached answers have not expired, and the
/// verified Rin users its numbers can be are those its check saw. Such a contact would get
/// exactly the writes it already has, so skipping it changes nothing but the time a night takes.
public struct EnrichmentCheck: Sendable, Equatable {
  public var fingerprint: Int64
  /// The settings that decide a contact's values (provider name, min_likelihood), as their key
  /// (`settingsKey(_:)`).
  public var settings: Int64
  /// When its earliest cached answer expires (or an unanswered key makes it due again); nil
  /// when nothing it has expires (no provider, or nothing to look up).
  public var dueAt: UTCInstant?
  /// The verified users the check saw among its numbers' buckets; nil for a check stored before
  /// they were kept.
  public var rinUsers: RinUsersSeen?

  public init(fingerprint: Int64, settings: Int64, dueAt: UTCInstant?, rinUsers: RinUsersSeen? = nil) {
    self.fingerprint = fingerprint
    self.settings = settings
    self.dueAt = dueAt
    self.rinUsers = rinUsers
  }

  /// What `settingsKey(_:)` hashes the settings' text under, apart from every other digest.
  public static let settingsKeyDomain = "enrichment settings"

  /// The key a check keeps of the settings' text: the first 64 bits of SHA-256 over the domain,
  /// a newline and the text (the migration that merged the contacts' state computes the same in
  /// SQL). Two settings colliding would take 2^32 distinct settings.
  public static func settingsKey(_ settings: String) -> Int64 {
    SHA256Hex.words(settingsKeyDomain + "\n" + settings)[0]
  }

  /// - Parameter rinUsersUnchanged: the verified users the contact's numbers can be are those
  ///   the stored check saw (`rinUsersUnchanged(stored:key:mayBeRinUser:)`).
  public static func isUnchanged(
    stored: EnrichmentCheck?, now current: EnrichmentCheck, at instant: UTCInstant, rinUsersUnchanged: Bool
  ) -> Bool {
    guard let stored, rinUsersUnchanged else { return false }
    guard stored.fingerprint == current.fingerprint, stored.settings == current.settings else { return false }
    return stored.dueAt.map { $0 > instant } ?? true
  }

  /// Whether the verified users a contact's numbers can be are still those its check saw: the
  /// key of its stored buckets under tonight's users (`key`) equals the stored key. A check
  /// stored without them cannot tell, so any number that may be a verified user's
  /// (`mayBeRinUser`, by its last digits) counts as a change.
  public static func rinUsersUnchanged(
    stored: RinUsersSeen?, key: (_ buckets: [Int64]) -> Int64, mayBeRinUser: () -> Bool
  ) -> Bool {
    guard let stored else { return !mayBeRinUser() }
    return key(stored.buckets) == stored.key
  }

  /// The next time a contact whose keys are cached until `expiries` must be looked at: the
  /// earliest expiry; `instant` itself (the next run) when a key got no answer.
  public static func dueAt(expiries: [UTCInstant?], at instant: UTCInstant) -> UTCInstant? {
    var due: UTCInstant?
    for expiry in expiries {
      guard let expiry, expiry > instant else { return instant }
      due = min(due ?? expiry, expiry)
    }
    return due
  }
}

/// What a check saw of the verified Rin users: the buckets of its contact's numbers
/// (`RinPhoneSuffixes.bucket`, the parse's for a number its digits cannot judge) and
/// `VerifiedUsersDigest.key(of:parser:)` over them. Kept per contact, so that a night compares
/// the key again without parsing: the buckets follow from the numbers and the owner's region,
/// which the contact's fingerprint covers, and from the parser, which the key covers.
public struct RinUsersSeen: Sendable, Equatable {
  /// Ascending, distinct.
  public var buckets: [Int64]
  public var key: Int64

  public init(buckets: some Sequence<Int64>, key: Int64) {
    self.buckets = Set(buckets).sorted()
    self.key = key
  }

  /// The buckets as `contact_states.check_buckets` keeps them (`BucketList`).
  public var bucketsText: String { BucketList.text(buckets) }

  /// nil when `text` is not a list `bucketsText` writes (a check to redo, not to trust).
  public init?(bucketsText text: String, key: Int64) {
    guard let buckets = BucketList.parse(text) else { return nil }
    self.buckets = buckets
    self.key = key
  }
}
