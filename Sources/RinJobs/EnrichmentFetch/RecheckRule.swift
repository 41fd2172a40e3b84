import RinDomain
import RinRuntime
import RinStorage

/// This run's side of `EnrichmentCheck`: the settings that decide values and the verified Rin
/// users' numbers, against which a contact's stored check is compared.
struct RecheckRule: Sendable {
  let settings: String
  /// What a check keeps of `settings` (`EnrichmentCheck.settingsKey`).
  let settingsKey: Int64
  let suffixes: RinPhoneSuffixes
  /// The same users by bucket: which owners a change among them can concern.
  let verified: VerifiedUsersDigest
  /// The normalizer's `parserDigest`: owners' buckets may come from their numbers' E.164 forms.
  let parserDigest: Int64
  let now: UTCInstant
  /// When each owner's answers are asked again (`RefreshPhase`); nil without a provider.
  let refresh: RefreshPhase?

  /// Provider name and `min_likelihood`; without a provider, empty (a provider configured
  /// later makes every contact due).
  static func settings(provider: (name: String, minLikelihood: Int)?) -> String {
    provider.map { "\($0.name)|min_likelihood=\($0.minLikelihood)" } ?? ""
  }

  static func load(
    settings: String, parserDigest: Int64, now: UTCInstant, refresh: RefreshPhase?, context: JobContext
  ) throws -> RecheckRule {
    var suffixes = RinPhoneSuffixes()
    var verified = VerifiedUsersDigest()
    try context.read {
      try EnrichmentQueries(tx: $0).forEachVerifiedUserPhone { user, phone in
        suffixes.add(verifiedE164: phone)
        verified.add(userID: user, verifiedE164: phone)
      }
      try EnrichmentQueries(tx: $0).forEachDepartedVerifiedUser(
        deletedAfter: now.saturating(plus: -departuresLookBack)
      ) {
        verified.addDeparted(userID: $0, verifiedE164: $1, deletedAt: $2)
      }
    }
    return RecheckRule(
      settings: settings, settingsKey: EnrichmentCheck.settingsKey(settings), suffixes: suffixes,
      verified: verified, parserDigest: parserDigest, now: now,
      refresh: refresh)
  }

  /// How far back verified users' departures are known (`VerifiedUsersDigest.addDeparted`): an
  /// owner last examined before then whose buckets changed has its checks read, as any other.
  static let departuresLookBack: Int64 = 8 * 86_400

  /// An examination of `owner` tonight asks again the answers expiring before this instant: its
  /// next visit (`RefreshPhase.horizon`), or now without a provider.
  func horizon(owner: UserID) -> UTCInstant {
    refresh?.horizon(owner: owner, now: now) ?? now
  }

  /// When `owner`, whose earliest answer expires at `expiry`, is next due (`RefreshPhase.due`).
  func due(owner: UserID, expiry: UTCInstant) -> UTCInstant {
    refresh?.due(owner: owner, expiry: expiry, now: now) ?? expiry
  }

  /// The settings and the parser as a digest of owner fingerprints (`OwnerStamps`).
  var settingsDigest: Int64 { OwnerStamps.settingsDigest([settings, String(parserDigest)]) }

  static func fingerprint(_ row: EnrichmentContactRow) -> Int64 {
    ContactFingerprint.of(
      ownerRegion: row.ownerRegion, editedFields: row.editedFields, rinUserID: row.rinUserID?.rawValue,
      phones: row.phones, emails: row.emails)
  }

  /// `fingerprint` is `Self.fingerprint(row)`, computed once by the caller, which keeps it.
  func isUnchanged(_ row: EnrichmentContactRow, fingerprint: Int64, stored: EnrichmentCheck?) -> Bool {
    guard let stored else { return false }
    let current = EnrichmentCheck(fingerprint: fingerprint, settings: settingsKey, dueAt: nil)
    let rinUsersUnchanged = EnrichmentCheck.rinUsersUnchanged(
      stored: stored.rinUsers, key: key(of:),
      mayBeRinUser: { row.phones.contains { suffixes.mayMatch(raw: $0) } })
    return EnrichmentCheck.isUnchanged(
      stored: stored, now: current, at: horizon(owner: row.userID), rinUsersUnchanged: rinUsersUnchanged)
  }

  /// Whether a contact not stamped since its owner's last examination is unchanged by its
  /// stored check alone, without reading it: its numbers, addresses and fields are those the
  /// check saw, so its fingerprint is the check's. A check kept without the verified users it
  /// saw cannot tell.
  func isUnchanged(unstamped check: EnrichmentCheck?, owner: UserID) -> Bool {
    guard let check else { return false }
    let rinUsersUnchanged = EnrichmentCheck.rinUsersUnchanged(
      stored: check.rinUsers, key: key(of:), mayBeRinUser: { true })
    return EnrichmentCheck.isUnchanged(
      stored: check, now: EnrichmentCheck(fingerprint: check.fingerprint, settings: settingsKey, dueAt: nil),
      at: horizon(owner: owner), rinUsersUnchanged: rinUsersUnchanged)
  }

  /// A contact not stamped since its owner's last examination under the same region and parser
  /// (`EnrichmentOwners.readableInPart`) whose check differs from tonight's only in the verified
  /// users its numbers' buckets hold, when none of those buckets holds one tonight: its numbers
  /// are nobody's, so the Rin-network source links it to no one, as reading it would find; its
  /// provider answers are as its check kept them (same settings, not due), as for a contact the
  /// check leaves alone. Returns the check to store with tonight's key, nil when the contact
  /// must be read. A verified user's deletion ends so in the books that held its number.
  func recheckedByBuckets(unstamped check: EnrichmentCheck?, owner: UserID) -> EnrichmentCheck? {
    guard var check, let seen = check.rinUsers, check.settings == settingsKey,
      check.dueAt.map({ $0 > horizon(owner: owner) }) ?? true, !verified.holdsUsers(inAnyOf: seen.buckets)
    else { return nil }
    check.rinUsers = RinUsersSeen(buckets: seen.buckets, key: key(of: seen.buckets))
    return check
  }

  /// `OwnerStamps.regionDigest` under tonight's parser.
  func regionDigest(_ region: String?) -> Int64 {
    OwnerStamps.regionDigest(region, parser: parserDigest)
  }

  /// The key of a contact whose numbers fall in `buckets` under tonight's verified users.
  func key(of buckets: some Sequence<Int64>) -> Int64 {
    verified.key(of: buckets, parser: parserDigest)
  }

  /// What a check made tonight of a contact whose numbers fall in `buckets` remembers.
  func seen(_ buckets: Set<Int64>) -> RinUsersSeen {
    RinUsersSeen(buckets: buckets, key: key(of: buckets))
  }
}
