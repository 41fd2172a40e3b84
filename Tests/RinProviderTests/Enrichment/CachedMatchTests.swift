import Foundation
import RinProviderClient
import RinTestSupport
import Testing

@testable import RinJobs

/// The cached match's compact form (issue 53), and the object form rows cached before it hold.
@Suite("A cached match's response", .onItsOwnThread)
struct CachedMatchTests {
  @Test func theCompactFormReadsBackWithEveryFieldAndItsMissingOnes() throws {
    let match = CachedMatch(
      likelihood: 7,
      person: ProviderPerson(company: #"Ünïcode "Quoted" \ Co"#, title: nil, birthday: "1990-02-03"))
    let text = match.json()
    #expect(text == #"[7,"Ünïcode \"Quoted\" \\ Co",null,"1990-02-03"]"#)
    #expect(CachedMatch.read(text) == match)
    let objectForm = try #require(String(data: try JSONEncoder().encode(match), encoding: .utf8))
    #expect(text.utf8.count + 30 < objectForm.utf8.count, "without the field names: \(objectForm)")
  }

  @Test func aResponseCachedBeforeInTheObjectFormIsStillRead() {
    let old = #"{"likelihood":8,"person":{"company":"Acme","title":"CTO"}}"#
    #expect(
      CachedMatch.read(old)
        == CachedMatch(likelihood: 8, person: ProviderPerson(company: "Acme", title: "CTO")))
    #expect(CachedMatch.read("[8") == nil && CachedMatch.read(#"{"person":{}}"#) == nil, "unreadable is nil")
  }
}
