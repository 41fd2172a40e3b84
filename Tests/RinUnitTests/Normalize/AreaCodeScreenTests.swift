import RinNormalize
import RinTestSupport
import Testing

@Suite("Area code screen", .onItsOwnThread)
struct AreaCodeScreenTests {
  let screen = AreaCodeScreen(areaCodes: ["+1-415", "+1-212"], defaultRegion: "US")

  @Test(arguments: ["(415) 234-5601", "+1 415 234 5603", "1-415-234-5611", "4152345610", "0114152345610"])
  func numbersWhoseDigitsHoldACodeMayHaveIt(raw: String) {
    #expect(screen.mayHave(raw))
  }

  @Test(arguments: ["(206) 234-5601", "+44 20 7946 0000", "12", "", "41-6234", "4 1 6 5"])
  func numbersWithoutTheDigitsCannot(raw: String) {
    #expect(!screen.mayHave(raw))
    #expect(!AreaCodeScreen(areaCodes: ["+1-415", "+1-212"], defaultRegion: "ZZ").mayHave(raw))
  }

  @Test func digitsSeparatedByPunctuationOrSpacesStillCount() {
    #expect(screen.mayHave("4 1 5-234-5601"))
    #expect(AreaCodeScreen(areaCodes: ["+44-20"], defaultRegion: "GB").mayHave("020 7946 0000"))
    #expect(!AreaCodeScreen(areaCodes: ["+44-20"], defaultRegion: "GB").mayHave("0161 496 0000"))
  }

  @Test(arguments: ["555-CALL-NOW", "1-800-flowers", "２０６ ２３４ ５６０１", "٢٠٦٢٣٤٥٦٠١", "206 234 5601 ext 9"])
  func lettersAndNonASCIITextAreAlwaysParsed(raw: String) {
    #expect(screen.mayHave(raw))
  }

  @Test func regionsWhoseMetadataRewritesNumbersAreNotScreened() {
    // The Bahamas put 242 in front of a seven-digit local number.
    #expect(PhoneNormalizer.parse(raw: "322 1234", defaultRegion: "BS")?.geographicAreaCode == "+1-242")
    #expect(AreaCodeScreen(areaCodes: ["+1-242"], defaultRegion: "BS").mayHave("322 1234"))
    #expect(!AreaCodeScreen(areaCodes: ["+1-242"], defaultRegion: "US").mayHave("322 1234"))
    // Argentina's metadata turns a national "15" into a "9": its codes are never screened.
    #expect(AreaCodeScreen(areaCodes: ["+54-911"], defaultRegion: "US").mayHave("+54 11 1234 5678"))
  }

  @Test func malformedCodesAreNotScreened() {
    #expect(AreaCodeScreen(areaCodes: ["415"], defaultRegion: "US").mayHave("(206) 234-5601"))
    #expect(AreaCodeScreen(areaCodes: ["+1-"], defaultRegion: "US").mayHave("(206) 234-5601"))
    #expect(!AreaCodeScreen(areaCodes: [], defaultRegion: "US").mayHave("(415) 234-5601"))
  }

  /// The property the job relies on, over every number of a seeded file (many regions) with its
  /// owner's region: whenever libphonenumber gives a number an area code, the screen for that
  /// code lets it through.
  @Test func neverRulesOutANumberLibphonenumberGivesTheCode() throws {
    let phones = try SeededPhone.all(users: 60, seed: 29)
    var checked: [String: Int] = [:]
    var ruledOut: [String] = []
    var letThroughInUS = 0
    for (raw, region) in phones.map({ ($0.raw, $0.region) }) {
      guard let code = PhoneNormalizer.parse(raw: raw, defaultRegion: region)?.geographicAreaCode else {
        continue
      }
      checked[region, default: 0] += 1
      if !AreaCodeScreen(areaCodes: [code], defaultRegion: region).mayHave(raw) { ruledOut.append(code) }
      // Another code's screen should rule most numbers out, or the screen saves nothing.
      if region == "US", AreaCodeScreen(areaCodes: ["+1-999"], defaultRegion: region).mayHave(raw) {
        letThroughInUS += 1
      }
    }
    #expect(checked.count >= 5, "numbers with area codes in several regions: \(checked)")
    #expect(ruledOut.isEmpty)
    let inUS = checked["US"] ?? 0
    #expect(
      inUS > 500 && letThroughInUS * 10 < inUS, "\(letThroughInUS) of \(inUS) pass another code's screen")
  }
}
