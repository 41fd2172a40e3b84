import RinDomain
import RinStorage
import RinTestSupport
import Testing

@testable import RinJobs

/// enrichment-fetch reads, of an owner whose contacts' checks can tell, only the contacts
/// stamped since its last examination and those whose check cannot tell by itself; of any other
/// owner, the whole book (`BookReads`).
@Suite("enrichment-fetch's partial reads of address books", .onItsOwnThread)
struct BookReadsTests {
  static let now: UTCInstant = 100_000
  static let examinedAt: UTCInstant = 50_000
  /// The bucket of tonight's one verified user; bucket 7 holds nobody.
  static let occupied = RinPhoneSuffixes.bucket(verifiedE164: "+14155550123")
  static let rule: RecheckRule = {
    var verified = VerifiedUsersDigest()
    verified.add(userID: 500, verifiedE164: "+14155550123")
    return RecheckRule(
      settings: "", settingsKey: EnrichmentCheck.settingsKey(""), suffixes: RinPhoneSuffixes(),
      verified: verified, parserDigest: 0, now: now, refresh: nil)
  }()
  static let old = examinedAt.seconds - 7_200

  /// A check that tells by itself: the verified users it saw are tonight's, nothing is due.
  static func check(
    dueAt: UTCInstant? = nil, seen: Bool = true, keyMoved: Bool = false, settings: String = "",
    buckets: [Int64] = [7]
  ) -> EnrichmentCheck {
    let key = rule.key(of: buckets) + (keyMoved ? 1 : 0)
    return EnrichmentCheck(
      fingerprint: 1, settings: EnrichmentCheck.settingsKey(settings), dueAt: dueAt,
      rinUsers: seen ? RinUsersSeen(buckets: buckets, key: key) : nil)
  }

  /// Owners 1…9, all examined, all readable in part but 6; each of 1–5 and 8 has three contacts
  /// whose checks tell (ids 10u+1…10u+3) and one that is read (10u): stamped since, or its check
  /// missing, due, without the verified users it saw, of other settings, or seeing other
  /// verified users in a bucket that holds one tonight. Owner 7's two contacts have no check.
  /// Owner 9's contact 90 saw a verified user in a bucket that holds nobody tonight: its check
  /// settles it.
  static func book() -> (EnrichmentOwners, [LiveContactCheck]) {
    var owners = EnrichmentOwners()
    owners.examined = Array(1...9)
    owners.readableInPart = [1, 2, 3, 4, 5, 7, 8, 9]
    for user in owners.examined { owners.lastExaminedAt[user] = examinedAt }
    owners.lastExaminedAt[5] = examinedAt.advanced(by: 20_000)
    let special: [UserID: (stamp: Int64, check: EnrichmentCheck?)] = [
      1: (examinedAt.seconds + 10, nil), 2: (old, nil), 3: (old, check(dueAt: now)),
      4: (old, check(seen: false)),
      5: (old, check(settings: "another")), 6: (old, check()),
      8: (old, check(keyMoved: true, buckets: [occupied])), 9: (old, check(keyMoved: true)),
    ]
    var live: [LiveContactCheck] = []
    for (user, contact) in special.sorted(by: { $0.key < $1.key }) {
      live.append(
        LiveContactCheck(
          contactID: ContactID(rawValue: user.rawValue * 10), userID: user, stamp: contact.stamp,
          check: contact.check))
      for id in (user.rawValue * 10 + 1)...(user.rawValue * 10 + 3) {
        live.append(
          LiveContactCheck(contactID: ContactID(rawValue: id), userID: user, stamp: old, check: check()))
      }
    }
    live.append(LiveContactCheck(contactID: 70, userID: 7, stamp: old))
    live.append(LiveContactCheck(contactID: 71, userID: 7, stamp: old))
    return (owners, live)
  }

  @Test func anOwnerIsReadInPartWhenMostOfItsContactsTellByTheirChecks() {
    let (owners, live) = Self.book()
    let reads = BookReads.plan(owners, live: live, recheck: Self.rule)
    #expect(reads.inPart == [1, 2, 3, 4, 5, 8, 9])
    #expect(reads.whole == [6, 7], "6 is not readable in part; 7's contacts all need reading")
    #expect(reads.contacts == [20, 30, 40, 50, 80], "the stamped one (10) comes with the stamped range")
    #expect(reads.recheckedByBuckets.map(\.contactID) == [90])
    #expect(reads.recheckedByBuckets.first?.check == Self.check(), "tonight's key, the rest as kept")
    // Within the margin of the examination: still read; the earliest owner's threshold.
    #expect(reads.stampedAfter == Self.examinedAt.seconds - ChangeStamp.margin.wholeSeconds)
    let unread = reads.unread(live, read: [10, 20, 30, 40, 50, 80] as [ContactID])
    var told: [Int64] = []
    for user: Int64 in [1, 2, 3, 4, 5, 8, 9] {
      told += (user == 9 ? [90] : []) + [user * 10 + 1, user * 10 + 2, user * 10 + 3]
    }
    #expect(unread.map(\.contactID.rawValue) == told)
  }

  @Test func withoutContactsOrReadableOwnersEveryBookIsWhole() {
    var (owners, live) = Self.book()
    owners.readableInPart = []
    #expect(BookReads.plan(owners, live: live, recheck: Self.rule).whole == Array(1...9))
    live = []
    owners.readableInPart = [1]
    let reads = BookReads.plan(owners, live: live, recheck: Self.rule)
    #expect(reads.inPart == [1] && reads.contacts.isEmpty, "an owner without live contacts reads nothing")
  }
}
