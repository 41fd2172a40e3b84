/// What a job can tell about one owner's inputs without reading them: per table, the number of
/// the owner's rows and sums over their keys and change times, read from indexes keyed by owner.
/// A row added, deleted or re-stamped changes a sum or a count, so an owner whose stamps are the
/// same as when a job last examined them has nothing new to show it, provided the services keep
/// the contract of docs/JOBS.md "What counts as a change" (bump `contacts.updated_at` when a
/// contact's names, phones or emails change). The owner's region is kept as text: `users` has
/// no change time.
public struct OwnerStamps: Sendable, Equatable {
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
  /// A digest of inputs outside the owner's rows that the job matches them with (enrichment:
  /// the verified Rin users whose numbers the owner's contacts may hold).
  public var related: Int64 = 0

  public init() {}

  /// The owner's stamps under `settings` (`settingsDigest`): what a stored fingerprint is
  /// compared with.
  public func fingerprint(settings: Int64) -> Int64 {
    Self.fingerprint(
      stampedRows: stampedRows, circles: circles, region: region, related: related, settings: settings)
  }

  /// The part of the fingerprint that the tables with change stamps give (contacts, members,
  /// removals), kept with the examination: an owner none of whose rows was stamped since
  /// (`ChangeWatermark`) has the same, and is fingerprinted without summing its rows again.
  public var stampedRows: Int64 {
    var hash = FNV1a()
    for (table, sums) in [("contacts", contacts), ("members", members), ("removals", removals)] {
      hash.add(table)
      for sum in sums { hash.add(String(sum)) }
    }
    return Int64(bitPattern: hash.value)
  }

  /// The fingerprint of an owner whose stamped rows give `stampedRows` (`stampedRows` above,
  /// now or as kept), with what has no change stamp read anew: its circles (a kind has none),
  /// its region, `related` and the settings.
  public static func fingerprint(
    stampedRows: Int64, circles: [Int64], region: String?, related: Int64, settings: Int64
  ) -> Int64 {
    var hash = FNV1a()
    hash.add(String(Self.version))
    hash.add(String(settings))
    hash.add(region)
    hash.add(String(related))
    hash.add(String(stampedRows))
    hash.add("circles")
    for sum in circles { hash.add(String(sum)) }
    return Int64(bitPattern: hash.value)
  }

  /// The owner's region and the phone parser as an examination read them
  /// (`StoredOwnerExamination.regionDigest`): enrichment-fetch's contact checks depend on both
  /// (the buckets of numbers their digits cannot judge come from a parse in the owner's region).
  public static func regionDigest(_ region: String?, parser: Int64) -> Int64 {
    var hash = FNV1a()
    hash.add(region)
    hash.add(String(parser))
    return Int64(bitPattern: hash.value)
  }

  /// A digest of everything besides an owner's rows that a job's results depend on (thresholds,
  /// lists, libraries' data): a change of any of these makes every owner's fingerprint differ.
  public static func settingsDigest(_ parts: [String]) -> Int64 {
    var hash = FNV1a()
    for part in parts { hash.add(part) }
    return Int64(bitPattern: hash.value)
  }

  /// Raised when what the stamps cover changes (another table, another sum, another way to
  /// combine them).
  static let version = 2
}
