/// What a job stored of the last time it examined an owner (`owner_examinations`).
public struct StoredOwnerExamination: Sendable, Equatable {
  /// `OwnerStamps.fingerprint(settings:)` of what the examination read.
  public var fingerprint: Int64
  public var examinedAt: UTCInstant
  /// When something the examination found expires (enrichment: the earliest cached answer of
  /// the owner's contacts); nil when nothing does.
  public var dueAt: UTCInstant?
  /// `OwnerStamps.stampedRows` as the examination found them; nil in rows kept before it was.
  public var stampedRows: Int64?
  /// `OwnerStamps.regionDigest` of the owner's region as the examination read it; nil where a
  /// job does not keep it (circle-patterns) and in rows kept before it was.
  public var regionDigest: Int64?

  public init(
    fingerprint: Int64, examinedAt: UTCInstant, dueAt: UTCInstant? = nil, stampedRows: Int64? = nil,
    regionDigest: Int64? = nil
  ) {
    self.fingerprint = fingerprint
    self.examinedAt = examinedAt
    self.dueAt = dueAt
    self.stampedRows = stampedRows
    self.regionDigest = regionDigest
  }
}

/// Whether a job that skips unchanged owners examines one tonight, and why.
public enum OwnerExamination: String, Sendable, Equatable {
  /// Never examined (or examined before the job kept track).
  case new
  /// Stamps, region, related inputs or settings differ from the last examination.
  case changed
  /// Something the last examination found has expired (`dueAt`).
  case due
  /// The periodic pass (`PeriodicPass`) found one of the owner's contacts differing from its
  /// digest stored at the owner's last examination: a change the services did not stamp.
  case periodic
  /// `--full`.
  case forced

  /// nil when the owner's last examination still holds.
  public static func reason(
    stored: StoredOwnerExamination?, fingerprint: Int64, now: UTCInstant, foundByPass: Bool, forced: Bool
  ) -> OwnerExamination? {
    if forced { return .forced }
    guard let stored else { return .new }
    if stored.fingerprint != fingerprint { return .changed }
    if let due = stored.dueAt, due <= now { return .due }
    return foundByPass ? .periodic : nil
  }

  /// Whether the examination stores the digest of every contact of the owner it read
  /// (`PeriodicPass`), not only of those stamped since the last one: an owner never examined,
  /// one whose contacts the pass found changed without a stamp, or `--full`.
  public var readsEveryContact: Bool {
    switch self {
    case .new, .periodic, .forced: true
    case .changed, .due: false
    }
  }

  /// Whether an examination for this reason stores the digest of a contact it read with change
  /// stamp `stamp`, the owner having last been examined at `lastExaminedAt`: every contact's
  /// when `readsEveryContact`, else those stamped since (the others' digests are as stored, or
  /// missing, which the pass then finds).
  public func storesDigest(ofContactStamped stamp: Int64, lastExaminedAt: UTCInstant?) -> Bool {
    guard !readsEveryContact, let lastExaminedAt else { return true }
    return stamp > lastExaminedAt.seconds
  }
}
