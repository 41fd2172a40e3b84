import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Phone evidence fingerprints", .onItsOwnThread)
struct PhoneEvidenceTests {
  let numbers = ["(415) 234-5678", "+44 20 7946 0958"]
  var base: Int64 { PhoneEvidence.fingerprint(numbers: numbers, region: "US", parser: 7) }

  @Test func theOrderOfTheRowsDoesNotMatter() {
    #expect(PhoneEvidence.fingerprint(numbers: numbers.reversed(), region: "US", parser: 7) == base)
  }

  @Test func everyInputTheAnswerDependsOnChangesIt() {
    #expect(
      PhoneEvidence.fingerprint(numbers: ["(415) 234-5679", numbers[1]], region: "US", parser: 7) != base)
    #expect(PhoneEvidence.fingerprint(numbers: numbers + ["(415) 234-5678"], region: "US", parser: 7) != base)
    #expect(PhoneEvidence.fingerprint(numbers: [numbers[0]], region: "US", parser: 7) != base)
    #expect(PhoneEvidence.fingerprint(numbers: numbers, region: "GB", parser: 7) != base)
    #expect(PhoneEvidence.fingerprint(numbers: numbers, region: "US", parser: 8) != base)
    // Where one number ends matters: the same characters split differently are other numbers.
    #expect(
      PhoneEvidence.fingerprint(numbers: ["12", "3"], region: "US", parser: 7)
        != PhoneEvidence.fingerprint(numbers: ["1", "23"], region: "US", parser: 7))
  }

  @Test func areaCodesRoundTripThroughTheirStoredList() {
    let evidence = PhoneEvidence(
      fingerprint: 1, validNumbers: 2, invalidNumbers: 0, areaCodes: ["+1-415", "+44-20"])
    #expect(evidence.areaCodeList == "+1-415,+44-20")
    #expect(PhoneEvidence.areaCodes(fromList: evidence.areaCodeList) == evidence.areaCodes)
    #expect(PhoneEvidence.areaCodes(fromList: "").isEmpty)
  }
}
