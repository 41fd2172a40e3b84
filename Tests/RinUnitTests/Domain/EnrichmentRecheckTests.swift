import RinDomain
import RinTestSupport
import Testing

@Suite("enrichment rechecks: fingerprints, Rin phone suffixes, when a contact is due")
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
  static func check(_ fingerprint: Int64 = 1, settings: String = settings, due: Int64? = 200)
    -> EnrichmentCheck
  {
    EnrichmentCheck(fingerprint: fingerprint, settings: settings, dueAt: due)
  }

  @Test func aContactIsLeftAloneOnlyWhenNothingItDependsOnChanged() {
    let now = Self.check(due: nil)
    #expect(EnrichmentCheck.isUnchanged(stored: Self.check(), now: now, at: 100, mayBeRinUser: false))
    #expect(EnrichmentCheck.isUnchanged(stored: Self.check(due: nil), now: now, at: 100, mayBeRinUser: false))
    #expect(!EnrichmentCheck.isUnchanged(stored: nil, now: now, at: 100, mayBeRinUser: false))
    #expect(!EnrichmentCheck.isUnchanged(stored: Self.check(2), now: now, at: 100, mayBeRinUser: false))
    #expect(
      !EnrichmentCheck.isUnchanged(
        stored: Self.check(settings: "stub|min_likelihood=7"), now: now, at: 100, mayBeRinUser: false))
    #expect(!EnrichmentCheck.isUnchanged(stored: Self.check(), now: now, at: 100, mayBeRinUser: true))
    #expect(
      !EnrichmentCheck.isUnchanged(stored: Self.check(due: 100), now: now, at: 100, mayBeRinUser: false))
    #expect(EnrichmentCheck.isUnchanged(stored: Self.check(due: 101), now: now, at: 100, mayBeRinUser: false))
  }

  @Test func dueAtIsTheEarliestExpiryOrTheNextRunWhenAKeyGotNoAnswer() {
    #expect(EnrichmentCheck.dueAt(expiries: [], at: 100) == nil)
    #expect(EnrichmentCheck.dueAt(expiries: [500, 300, 900], at: 100) == 300)
    #expect(EnrichmentCheck.dueAt(expiries: [500, nil], at: 100) == 100)
    #expect(EnrichmentCheck.dueAt(expiries: [500, 100], at: 100) == 100, "expired at this very instant")
  }
}
