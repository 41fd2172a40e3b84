/// What circle-patterns can tell about one owner's inputs without reading them: per table, the
/// number of the owner's rows and sums over their keys and change times, read from indexes keyed
/// by owner. A row added, deleted or re-stamped changes a sum or a count, so an owner whose
/// stamps are the same as the night they were last examined has nothing new to show, provided
/// the services keep the contract of docs/JOBS.md "What counts as a change" (bump
/// `contacts.updated_at` when a contact's names, phones or emails change). The owner's region
/// is kept as text: `users` has no change time.
public struct CircleOwnerStamps: Sendable, Equatable {
  /// Rows of `contacts`: count, sum of ids, of `updated_at`, of `deleted_at`.
  public var contacts: [Int64] = []
  /// Circles: count, sum of the ids of pattern circles (so a kind that changes shows),
  /// sum of `deleted_at`.
  public var circles: [Int64] = []
  /// Memberships of the owner's circles: count, sum of contact ids, a sum mixing circle and
  /// contact (a member moved between circles), sum of `added_at`.
  public var members: [Int64] = []
  /// Removals from the owner's circles: count, the mixed sum, sum of `removed_at`.
  public var removals: [Int64] = []
  /// `users.region` as stored.
  public var region: String?

  public init() {}

  /// The owner's stamps under `settings` (`CirclePatternsSettingsDigest`): what the stored
  /// fingerprint is compared with.
  public func fingerprint(settings: Int64) -> Int64 {
    var hash = FNV1a()
    hash.add(String(Self.version))
    hash.add(String(settings))
    hash.add(region)
    for (table, sums) in [
      ("contacts", contacts), ("circles", circles), ("members", members), ("removals", removals),
    ] {
      hash.add(table)
      for sum in sums { hash.add(String(sum)) }
    }
    return Int64(bitPattern: hash.value)
  }

  /// A digest of everything besides an owner's rows that their suggestions depend on: the
  /// thresholds, the free-mail list, the public-suffix list's and libphonenumber's digests.
  public static func settingsDigest(_ parts: [String]) -> Int64 {
    var hash = FNV1a()
    for part in parts { hash.add(part) }
    return Int64(bitPattern: hash.value)
  }

  /// Raised when what the stamps cover changes (another table, another sum).
  static let version = 1
}

/// Whether circle-patterns examines an owner tonight, and why.
public enum CircleOwnerExamination: String, Sendable, Equatable {
  /// Never examined (or examined before this table existed).
  case new
  /// Stamps, region or settings differ from the last examination.
  case changed
  /// The last examination is `full_every` old or more: the periodic full pass that catches a
  /// change the services did not stamp.
  case periodic
  /// `--full`.
  case forced

  /// nil when the owner's last examination still holds.
  public static func reason(
    stored: (fingerprint: Int64, examinedAt: Int64)?, fingerprint: Int64, now: Int64,
    fullEverySeconds: Int64, forced: Bool
  ) -> CircleOwnerExamination? {
    if forced { return .forced }
    guard let stored else { return .new }
    if stored.fingerprint != fingerprint { return .changed }
    if now - stored.examinedAt >= fullEverySeconds { return .periodic }
    return nil
  }
}
