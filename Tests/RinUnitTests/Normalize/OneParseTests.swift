import RinNormalize
import RinTestSupport
import Testing

@Suite("One parse gives libphonenumber's own answer", .onItsOwnThread)
struct OneParseTests {
  /// The property the job relies on, over every number of a seeded file (many regions) with its
  /// owner's region, and every number again in every region the seeder uses: `parse` (one region
  /// and type lookup) answers exactly as the library's `IsValidNumber` and
  /// `GetLengthOfGeographicalAreaCode` do.
  @Test func equalsTheLibrarysAnswerOnEverySeededNumberInEveryRegion() throws {
    let phones = try SeededPhone.all(users: 60, seed: 31)
    let regions = Set(phones.map(\.region)).union([
      "ZZ", "BS", "AR", "MX", "CN", "IT",
    ])
    var compared = 0
    var withAreaCode = 0
    var valid = 0
    var differing: [String] = []
    for raw in phones.map(\.raw) {
      for region in regions {
        let fast = PhoneNormalizer.parse(raw: raw, defaultRegion: region)
        let reference = PhoneNormalizer.parseByLibrary(raw: raw, defaultRegion: region)
        compared += 1
        if reference != nil { valid += 1 }
        if reference?.geographicAreaCode != nil { withAreaCode += 1 }
        // Only the region and the derived code go into the message: never the number.
        if fast != reference { differing.append("\(region): \(reference?.geographicAreaCode ?? "none")") }
      }
    }
    #expect(regions.count >= 8, "regions: \(regions.sorted())")
    #expect(compared > 10_000 && valid * 4 > compared && withAreaCode * 10 > compared)
    #expect(differing.isEmpty, "\(differing.count) differ, e.g. \(differing.prefix(5))")
  }

  @Test(
    "tricky kinds: geographic mobiles, Italian leading zeros, non-geographic entities, rewriting regions",
    arguments: [
      ("+52 55 1234 5678", "US"), ("+55 11 91234 5678", "BR"), ("+86 138 0013 8000", "CN"),
      ("+86 10 1234 5678", "CN"), ("06 1234 5678", "IT"), ("+39 06 1234 5678", "US"),
      ("+800 1234 5678", "ZZ"), ("+882 1234 5678", "ZZ"), ("322 1234", "BS"), ("011 15 1234 5678", "AR"),
      ("+54 9 11 1234 5678", "US"), ("+62 21 1234567", "ID"), ("(415) 234-5678", "US"),
      ("+1 800 555 0100", "US"), ("+44 7700 900123", "GB"), ("+7 495 123 4567", "RU"),
    ])
  func trickyKinds(raw: String, region: String) {
    #expect(
      PhoneNormalizer.parse(raw: raw, defaultRegion: region)
        == PhoneNormalizer.parseByLibrary(raw: raw, defaultRegion: region))
  }

  /// Erasure finds a deleted contact's cached answers by `e164OfAnyNumber`: it must give every
  /// valid number's form exactly, and it may give more (numbers `parse` rejects).
  @Test func theFormOfAnyNumberIsTheValidFormWhereverThereIsOne() throws {
    let phones = try SeededPhone.all(users: 60, seed: 31)
    let regions = Set(phones.map(\.region)).union(["ZZ", "BS", "AR", "MX", "CN", "IT"])
    var valid = 0
    var onlyAny = 0
    var differing = 0
    for raw in phones.map(\.raw) {
      for region in regions {
        let any = PhoneNormalizer.e164OfAnyNumber(raw: raw, defaultRegion: region)
        guard let parsed = PhoneNormalizer.parse(raw: raw, defaultRegion: region) else {
          if any != nil { onlyAny += 1 }
          continue
        }
        valid += 1
        if any != parsed.e164 { differing += 1 }
      }
    }
    #expect(valid > 1_000 && onlyAny > 0, "valid \(valid), parsed but not valid \(onlyAny)")
    #expect(differing == 0, "\(differing) valid numbers got another form")
  }
}
