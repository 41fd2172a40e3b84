import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("enrichment rules", .onItsOwnThread)
struct EnrichmentRulesTests {
  @Test func lookupKeysAreHexSHA256OfTheNormalizedText() {
    // Vectors from `printf '%s' TEXT | sha256sum`.
    #expect(
      LookupKey.of(normalized: "ada@example.com")
        == "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72")
    #expect(
      LookupKey.of(normalized: "+14155550002")
        == "06c02db8e15d9dec36449aeda2a089dea81fa8125d8198f63b9f53626acef466")
    #expect(
      LookupKey.of(normalized: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func editedFieldsAreReadLeniently() {
    let edited = EditedFields(" Company ,, TITLE,nickname ")
    #expect(edited.contains(.company))
    #expect(edited.contains(.title))
    #expect(!edited.contains(.birthday))
    #expect(!edited.blocksEveryProviderField)
    #expect(EditedFields("birthday,title,company").blocksEveryProviderField)
    #expect(EditedFields(nil).names.isEmpty)
    #expect(EditedFields("").names.isEmpty)
  }

  static func match(
    _ key: String, _ likelihood: Int, company: String? = nil, title: String? = nil, birthday: String? = nil
  )
    -> ProviderMatch
  {
    ProviderMatch(
      key: key, likelihood: likelihood, company: company, title: title, birthday: birthday, fetchedAt: 7)
  }

  @Test func minLikelihoodIsInclusiveAndConfidenceIsLikelihoodOverTen() {
    let outcome = ProviderEnrichmentRule.choose(
      matches: [Self.match("a", 6, company: "Six"), Self.match("b", 5, title: "Five")], minLikelihood: 6,
      edited: EditedFields(nil))
    #expect(outcome.values == [.company: EnrichmentValue(value: "Six", confidence: 0.6, fetchedAt: 7)])
    #expect(outcome.skipped == [.belowMinLikelihood: 1])
  }

  @Test func eachFieldTakesTheMostLikelyMatchThatHasItAndTiesGoToTheSmallerKey() {
    let matches = [
      Self.match("b", 9, company: "Nine B"), Self.match("a", 9, company: "Nine A", title: "Lead"),
      Self.match("c", 10, birthday: "1990-01-02"),
    ]
    for order in [matches, matches.reversed()] {
      let values = ProviderEnrichmentRule.choose(matches: order, minLikelihood: 0, edited: EditedFields(nil))
        .values
      #expect(values[.company]?.value == "Nine A")
      #expect(values[.title]?.value == "Lead")
      #expect(values[.birthday] == EnrichmentValue(value: "1990-01-02", confidence: 1, fetchedAt: 7))
    }
  }

  @Test func editedFieldsAreNeverWritten() {
    let outcome = ProviderEnrichmentRule.choose(
      matches: [Self.match("a", 9, company: "Acme", title: "CTO")], minLikelihood: 6,
      edited: EditedFields("title"))
    #expect(outcome.values.keys.sorted() == [.company])
    #expect(outcome.skipped == [.editedByUser: 1])
  }

  @Test(arguments: [
    ("1980-02-29", true), ("1981-02-29", false), ("--02-29", true), ("--02-30", false), ("1980-2-29", false),
    ("29/02/1980", false), ("", false),
  ])
  func birthdaysMustBeOneOfTheContractsTwoForms(_ text: String, _ usable: Bool) {
    let values = ProviderEnrichmentRule.choose(
      matches: [Self.match("a", 9, birthday: text)], minLikelihood: 0, edited: EditedFields(nil)
    ).values
    #expect((values[.birthday] != nil) == usable)
  }

  @Test func blankOverlongOrControlCharacterTextIsUnusableAndTheNextMatchIsTried() {
    let long = String(repeating: "x", count: 201)
    let outcome = ProviderEnrichmentRule.choose(
      matches: [
        Self.match("a", 10, company: "  ", title: "Line\nbreak"), Self.match("b", 9, company: long),
        Self.match("c", 8, company: " Acme ", title: "CTO"),
      ], minLikelihood: 0, edited: EditedFields(nil))
    #expect(outcome.values[.company]?.value == "Acme")
    #expect(outcome.values[.title]?.value == "CTO")
    #expect(outcome.skipped == [.unusableValue: 3])
  }

  @Test func aWriteIsNewToTheUserOnlyWhenTheValueChanges() {
    let proposed = EnrichmentValue(value: "Acme", confidence: 0.8, fetchedAt: 1)
    #expect(EnrichmentWrite.decide(proposed, stored: nil) == .insert)
    #expect(EnrichmentWrite.decide(proposed, stored: ("Acme", 0.8)) == .none)
    #expect(EnrichmentWrite.decide(proposed, stored: ("Acme", 0.7)) == .update(isNewToUser: false))
    #expect(EnrichmentWrite.decide(proposed, stored: ("Acme", nil)) == .update(isNewToUser: false))
    #expect(EnrichmentWrite.decide(proposed, stored: ("Globex", 0.8)) == .update(isNewToUser: true))
    #expect(EnrichmentWrite.decide(proposed, stored: (nil, 0.8)) == .update(isNewToUser: true))
  }

  @Test func theRinNetworkLinksOneOtherUserOnly() {
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: []) == .none)
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[], [7]]) == .user(7))
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[7], [7]]) == .user(7))
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[1]]) == .ownNumber)
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[1], [7]]) == .user(7))
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[7, 8]]) == .ambiguous)
    #expect(RinNetworkMatch.resolve(owner: 1, usersByPhone: [[7], [8]]) == .ambiguous)
  }

  @Test func theNotificationOpensTheContactOrTheEnrichmentSection() {
    #expect(Notifications.contactEnrichmentDeepLink(contactIDs: [42]) == "rin://contacts/42")
    #expect(Notifications.contactEnrichmentDeepLink(contactIDs: [42, 43]) == "rin://home?section=enrichment")
    #expect(Notifications.contactEnrichmentKey(user: 5, runID: 9) == "contact_enrichment:5:9")
  }
}
