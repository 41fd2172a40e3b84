import RinDomain
import RinJobs
import RinNormalize
import RinTestSupport
import Testing

/// The bucket rule must put a contact number in the bucket of every verified user the
/// Rin-network rule can link it to (equal E.164 forms), whatever way it was typed, and a number
/// that has no E.164 form in none: else an owner would not be examined when that user changes,
/// or would be examined whenever anyone does.
@Suite("enrichment owner buckets: numbers the digits cannot judge", .onItsOwnThread)
struct RinPhoneBucketTests {
  static func e164(_ raw: String, _ region: String?) -> String? {
    PhoneNormalizer.parse(raw: raw, defaultRegion: PhoneNormalizer.region(from: region))?.e164
  }

  static func bucket(_ raw: String, _ region: String?) -> Int64? {
    RinPhoneSuffixes.bucket(raw: raw) { e164($0, region) }
  }

  @Test(
    arguments: [
      ("+1 415 555 0123", "US"), ("(415) 555-0123", "US"), ("020 7946 0958", "GB"),
      ("+44 (0)20 7946 0958", "DE"), ("1-800-FLOWERS", "US"), ("+1 415 555 0123 ext. 12", "US"),
      ("415-555-0123 x7", "US"), ("415 555 0123;ext=5", "US"), ("415-555-0123#2", "US"),
      ("tel:+1-415-555-0123", "US"), ("٤١٥٥٥٥٠١٢٣", "US"), ("＋１ ４１５ ５５５ ０１２３", nil),
      ("+1\u{00A0}415\u{00A0}555\u{00A0}0123", nil), ("4002", "NU"), ("+683 4002", nil), ("5550123", "US"),
      ("030 123456", "DE"), ("*67 415 555 0123", "US"), ("555 01", "US"), ("ask at the desk", "US"),
      ("", "US"),
      ("+1 415 555 0123, +1 415 555 0124", "US"), ("0171 1234567", nil),
      // What the seeder writes for numbers people got wrong (RinSeed.PhoneCatalogue).
      ("555-CALL-NOW", "US"), ("abc", "US"), ("+1 415 234", "US"), ("++44 20", "GB"), ("000", "US"),
      ("12", "US"), ("   ", "US"),
    ] as [(String, String?)])
  func aNumberIsInTheBucketOfEveryUserItCanBe(raw: String, region: String?) {
    let bucket = Self.bucket(raw, region)
    if let e164 = Self.e164(raw, region) {
      #expect(bucket == RinPhoneSuffixes.bucket(verifiedE164: e164), "\(raw) is \(e164)")
    } else if !raw.unicodeScalars.allSatisfy({ " +-.()/\t0123456789".unicodeScalars.contains($0) })
      || raw.filter(\.isNumber).count <= 7
    {
      #expect(bucket == nil, "\(raw) has no E.164 form: no verified user can be it")
    }
  }

  @Test func numbersTheDigitsCannotJudgeFollowTheirE164Form() throws {
    let user = RinPhoneSuffixes.bucket(verifiedE164: "+14155550123")
    for typed in ["+1 415 555 0123 ext. 12", "415-555-0123 x7", "٤١٥٥٥٥٠١٢٣", "＋１ ４１５ ５５５ ０１２３"] {
      #expect(Self.bucket(typed, "US") == user, "\(typed)")
    }
    #expect(Self.bucket("1-800-FLOWERS", "US") == RinPhoneSuffixes.bucket(verifiedE164: "+18003569377"))
    #expect(Self.bucket("4002", "NU") == RinPhoneSuffixes.bucket(verifiedE164: "+6834002"))
    for nobody in ["555 01", "ask at the desk", "", "4002"] {
      #expect(Self.bucket(nobody, "US") == nil, "\(nobody)")
    }
  }

  @Test func numbersTheDigitsJudgeAreNeverParsed() {
    var asked = 0
    let bucket = RinPhoneSuffixes.bucket(raw: "+1 (415) 555-0123") { _ in
      asked += 1
      return nil
    }
    #expect(bucket == RinPhoneSuffixes.bucket(verifiedE164: "+14155550123") && asked == 0)
  }

  @Test func aVerifiedUserElsewhereLeavesAnOwnerWithAnUnjudgedNumberAlone() throws {
    var before = VerifiedUsersDigest()
    before.add(userID: 1, verifiedE164: "+14155550123")
    let owner = [try #require(Self.bucket("+1 415 555 0123 ext. 12", "US"))]
    let unparseable = [Int64]()  // "ask at the desk" has no bucket at all
    var elsewhere = before
    elsewhere.add(userID: 2, verifiedE164: "+442079460958")
    #expect(elsewhere.digest(of: owner) == before.digest(of: owner))
    #expect(elsewhere.digest(of: unparseable) == before.digest(of: unparseable))
    var sameNumber = before
    sameNumber.add(userID: 3, verifiedE164: "+14155550123")
    #expect(sameNumber.digest(of: owner) != before.digest(of: owner), "a second user of the number")
    #expect(VerifiedUsersDigest().digest(of: owner) != before.digest(of: owner), "the user left")
    #expect(before.digest(of: [-1]) == 0, "the bucket once used for such numbers holds nobody")
  }

  @Test func aVerifiedNumberShorterThanTheSuffixHasABucketToo() throws {
    var users = VerifiedUsersDigest()
    users.add(userID: 7, verifiedE164: "+12345")
    let typed = try #require(RinPhoneSuffixes.bucket(raw: "12345") { _ in "+12345" })
    #expect(typed == RinPhoneSuffixes.bucket(verifiedE164: "+12345"))
    #expect(users.digest(of: [typed]) != 0)
  }
}
