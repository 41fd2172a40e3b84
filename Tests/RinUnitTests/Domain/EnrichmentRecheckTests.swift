import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("enrichment rechecks: fingerprints, Rin phone suffixes, when a contact is due", .onItsOwnThread)
struct EnrichmentRecheckTests {
  static func fingerprint(
    region: String? = "US", edited: String? = nil, rin: Int64? = nil, phones: [String] = ["415 555 0123"],
    emails: [String] = ["a@b.com"]
  ) -> Int64 {
    ContactFingerprint.of(
      ownerRegion: region, editedFields: edited, rinUserID: rin, phones: phones, emails: emails)
  }

  @Test func theFingerprintIsStableAndSeesEveryInput() {
    let base = Self.fingerprint()
    #expect(base == Self.fingerprint())
    let changed = [
      Self.fingerprint(region: "GB"), Self.fingerprint(region: nil), Self.fingerprint(edited: "company"),
      Self.fingerprint(rin: 7), Self.fingerprint(phones: ["415 555 0124"]), Self.fingerprint(phones: []),
      Self.fingerprint(emails: ["a@b.co"]),
      Self.fingerprint(phones: ["415 555 0123", "a@b.com"], emails: []),
    ]
    #expect(changed.allSatisfy { $0 != base })
    #expect(Set(changed).count == changed.count)
  }

  @Test func fieldBoundariesAndNilAreNotBlurred() {
    #expect(Self.fingerprint(phones: ["ab", "c"]) != Self.fingerprint(phones: ["a", "bc"]))
    #expect(Self.fingerprint(region: nil) != Self.fingerprint(region: ""))
    #expect(Self.fingerprint(edited: nil, rin: nil) != Self.fingerprint(edited: "", rin: nil))
  }

  static func suffixes(_ numbers: String...) -> RinPhoneSuffixes {
    var suffixes = RinPhoneSuffixes()
    for number in numbers { suffixes.add(verifiedE164: number) }
    return suffixes
  }

  @Test func aNumberTypedInAnyFormEndsWithTheUsersLastSevenDigits() {
    let suffixes = Self.suffixes("+14155550123", "+442079460958")
    for typed in [
      "+1 415 555 0123", "(415) 555-0123", "415.555.0123", "1-415-555-0123", "001 415 555 0123",
      "020 7946 0958", "+44 (0)20 7946 0958", "+44 20/7946/0958",
    ] {
      #expect(suffixes.mayMatch(raw: typed), "\(typed)")
    }
    for other in ["(415) 555-0124", "+1 212 555 0199", "020 7946 0959"] {
      #expect(!suffixes.mayMatch(raw: other), "\(other)")
    }
  }

  @Test func whatDigitsCannotDecideIsAPossibleMatch() {
    let suffixes = Self.suffixes("+14155550123")
    for typed in [
      "1-800-FLOWERS", "415 555 0100 ext 12", "415-555-0100#2", "*67 415 555 0100", "٤١٥٥٥٥٠١٠٠", "555 01",
      "5550100",
    ] {
      #expect(suffixes.mayMatch(raw: typed), "\(typed)")
    }
    #expect(!suffixes.mayMatch(raw: "55550100"), "eight digits are judged by their last seven")
  }

  @Test func aShortNationalNumberTypedWithFewDigitsIsAPossibleMatch() {
    let suffixes = Self.suffixes("+6834002")  // Niue: a four-digit national number
    #expect(suffixes.mayMatch(raw: "4002"))
    #expect(suffixes.mayMatch(raw: "+683 4002"))
    #expect(!suffixes.mayMatch(raw: "+1 683 400 2000"))
  }

  static let settings = "stub|min_likelihood=6"
  static func check(_ fingerprint: Int64 = 1, settings: String = settings, due: UTCInstant? = 200)
    -> EnrichmentCheck
  {
    EnrichmentCheck(fingerprint: fingerprint, settings: EnrichmentCheck.settingsKey(settings), dueAt: due)
  }

  @Test func theSettingsKeyIsTheFirstWordOfTheirDomainsDigest() {
    // python3: struct.unpack('>q', hashlib.sha256(b'enrichment settings\n' + text).digest()[:8])
    #expect(EnrichmentCheck.settingsKey("stub|min_likelihood=6") == -2_826_065_644_814_911_073)
    #expect(EnrichmentCheck.settingsKey("stub|min_likelihood=7") == -4_512_114_970_324_387_422)
  }

  @Test func aContactIsLeftAloneOnlyWhenNothingItDependsOnChanged() {
    let now = Self.check(due: nil)
    #expect(EnrichmentCheck.isUnchanged(stored: Self.check(), now: now, at: 100, rinUsersUnchanged: true))
    #expect(
      EnrichmentCheck.isUnchanged(stored: Self.check(due: nil), now: now, at: 100, rinUsersUnchanged: true))
    #expect(!EnrichmentCheck.isUnchanged(stored: nil, now: now, at: 100, rinUsersUnchanged: true))
    #expect(!EnrichmentCheck.isUnchanged(stored: Self.check(2), now: now, at: 100, rinUsersUnchanged: true))
    #expect(
      !EnrichmentCheck.isUnchanged(
        stored: Self.check(settings: "stub|min_likelihood=7"), now: now, at: 100, rinUsersUnchanged: true))
    #expect(!EnrichmentCheck.isUnchanged(stored: Self.check(), now: now, at: 100, rinUsersUnchanged: false))
    #expect(
      !EnrichmentCheck.isUnchanged(stored: Self.check(due: 100), now: now, at: 100, rinUsersUnchanged: true))
    #expect(
      EnrichmentCheck.isUnchanged(stored: Self.check(due: 101), now: now, at: 100, rinUsersUnchanged: true))
  }

  @Test func aCheckThatKeptItsVerifiedUsersIsComparedByItsKeyNotByTheDigits() {
    var users = VerifiedUsersDigest()
    users.add(userID: 7, verifiedE164: "+14155550100")
    let bucket = RinPhoneSuffixes.bucket(verifiedE164: "+14155550100")
    let seen = RinUsersSeen(buckets: [bucket, 5, bucket], key: users.key(of: [bucket, 5], parser: 1))
    #expect(seen.buckets == [5, bucket].sorted(), "distinct and ascending")
    let key = { (buckets: [Int64]) in users.key(of: buckets, parser: 1) }
    // The number may be a verified user's (same last digits), but the same users are there.
    #expect(EnrichmentCheck.rinUsersUnchanged(stored: seen, key: key, mayBeRinUser: { true }))
    var joined = users
    joined.add(userID: 8, verifiedE164: "+442075550100")  // same last seven digits, same bucket
    #expect(
      !EnrichmentCheck.rinUsersUnchanged(
        stored: seen, key: { joined.key(of: $0, parser: 1) }, mayBeRinUser: { true }))
    #expect(
      !EnrichmentCheck.rinUsersUnchanged(
        stored: seen, key: { users.key(of: $0, parser: 2) }, mayBeRinUser: { false }),
      "another parser may bucket the numbers its digits cannot judge differently")
    var elsewhere = users
    elsewhere.add(userID: 9, verifiedE164: "+14155550199")
    #expect(
      EnrichmentCheck.rinUsersUnchanged(
        stored: seen, key: { elsewhere.key(of: $0, parser: 1) }, mayBeRinUser: { true }),
      "a user in another bucket changes nothing")
    // Stored before the key was kept: by the digits, as before.
    #expect(EnrichmentCheck.rinUsersUnchanged(stored: nil, key: key, mayBeRinUser: { false }))
    #expect(!EnrichmentCheck.rinUsersUnchanged(stored: nil, key: key, mayBeRinUser: { true }))
  }

  @Test func keptBucketsReadBackAsWrittenAndAnythingElseIsRedone() {
    let seen = RinUsersSeen(buckets: [42, 7, 1_048_575], key: -3)
    #expect(seen.bucketsText == "7,42,1048575")
    #expect(RinUsersSeen(bucketsText: seen.bucketsText, key: -3) == seen)
    #expect(RinUsersSeen(bucketsText: "", key: 0) == RinUsersSeen(buckets: [], key: 0))
    #expect(BucketList.parse("9223372036854775807") == [Int64.max])
    for text in ["7,", ",7", "7,,8", "x", "-1", "7 ,8", "9223372036854775808", "٣"] {
      #expect(RinUsersSeen(bucketsText: text, key: 0) == nil, "\(text)")
    }
  }

  @Test func dueAtIsTheEarliestExpiryOrTheNextRunWhenAKeyGotNoAnswer() {
    #expect(EnrichmentCheck.dueAt(expiries: [], at: 100) == nil)
    #expect(EnrichmentCheck.dueAt(expiries: [500, 300, 900], at: 100) == 300)
    #expect(EnrichmentCheck.dueAt(expiries: [500, nil], at: 100) == 100)
    #expect(EnrichmentCheck.dueAt(expiries: [500, 100], at: 100) == 100, "expired at this very instant")
  }
}
