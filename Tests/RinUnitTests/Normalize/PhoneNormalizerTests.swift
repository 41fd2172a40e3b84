import RinNormalize
import RinTestSupport
import Testing

@Suite("Phone normalization through libphonenumber", .onItsOwnThread)
struct PhoneNormalizerTests {
  @Test(
    "national and international forms give E.164 and the geographic area code",
    arguments: [
      ("(415) 234-5678", "US", "+14152345678", "+1-415"),
      ("1 (415) 234-5678", "US", "+14152345678", "+1-415"),
      ("+1-415-234-5678", "GB", "+14152345678", "+1-415"),
      ("020 7946 0958", "GB", "+442079460958", "+44-20"),
      ("+44 (0)161 234 5678", "US", "+441612345678", "+44-161"),
      ("030/1234567", "DE", "+49301234567", "+49-30"),
      ("03-1234-5678", "JP", "+81312345678", "+81-3"),
    ])
  func geographic(raw: String, region: String, e164: String, area: String) throws {
    let phone = try #require(PhoneNormalizer.parse(raw: raw, defaultRegion: region))
    #expect(phone.e164 == e164)
    #expect(phone.geographicAreaCode == area)
  }

  @Test("a North American mobile has an area code: NANP numbers all do")
  func nanpMobile() throws {
    let phone = try #require(PhoneNormalizer.parse(raw: "+1 650 253 0000", defaultRegion: "US"))
    #expect(phone.geographicAreaCode == "+1-650")
  }

  @Test(
    "mobiles outside North America and toll-free numbers are valid but give no area code",
    arguments: [
      ("07711 123456", "GB"), ("+49 151 12345678", "US"), ("06 12 34 56 78", "FR"), ("+1 800 234 5678", "US"),
    ])
  func noAreaCode(raw: String, region: String) throws {
    let phone = try #require(PhoneNormalizer.parse(raw: raw, defaultRegion: region))
    #expect(phone.geographicAreaCode == nil)
    #expect(phone.e164.hasPrefix("+"))
  }

  @Test(
    "text that is not a valid number is rejected",
    arguments: [
      "", "   ", "12", "abc", "+", "555-CALL-NOW", "+1 415 234", "12345678901234567890", "(415) 234-567",
    ])
  func invalid(raw: String) {
    #expect(PhoneNormalizer.parse(raw: raw, defaultRegion: "US") == nil)
  }

  @Test("the stored region is trimmed and upper-cased; an unknown one leaves only + numbers parsing")
  func regions() {
    #expect(PhoneNormalizer.region(from: " gb ") == "GB")
    for odd in [nil, "", "XX", "EU", "USA", "1"] as [String?] {
      #expect(PhoneNormalizer.region(from: odd) == PhoneNormalizer.unknownRegion)
    }
    #expect(PhoneNormalizer.parse(raw: "(415) 234-5678", defaultRegion: PhoneNormalizer.unknownRegion) == nil)
    #expect(
      PhoneNormalizer.parse(raw: "+14152345678", defaultRegion: PhoneNormalizer.unknownRegion)?.e164
        == "+14152345678")
  }

  @Test("parsing from many tasks at once gives the same answers")
  func concurrent() async {
    let results = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<64 {
        group.addTask { PhoneNormalizer.parse(raw: "020 7946 0958", defaultRegion: "GB")?.e164 }
      }
      return await group.reduce(into: [String?]()) { $0.append($1) }
    }
    #expect(Set(results) == ["+442079460958"])
  }
}
