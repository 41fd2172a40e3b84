import RinDomain
import RinTestSupport
import Testing

@Suite("Erasure rules", .onItsOwnThread)
struct ErasureRulesTests {
  @Test func aDeletedContactLeavesTheListAndTheOthersKeepTheirOrder() {
    #expect(SuggestionContactList.removing([12], from: "3,12,40") == "3,40")
    #expect(SuggestionContactList.removing([3, 40], from: "3,12,40") == "12")
    #expect(SuggestionContactList.removing([3, 12, 40], from: "3,12,40") == "")
  }

  @Test func aListWithoutTheContactIsTheSameText() {
    // Not rewritten: the caller updates only the rows whose text changed.
    #expect(SuggestionContactList.removing([7], from: "3, 12,40") == "3, 12,40")
    #expect(SuggestionContactList.removing([7], from: "") == "")
  }

  @Test func anIdNotAPrefixOrSuffixOfAnotherIsMatchedWhole() {
    // 1 is not 12 nor 21: ids compare as numbers, never as text.
    #expect(SuggestionContactList.removing([1], from: "12,21,1") == "12,21")
    #expect(SuggestionContactList.removing([1], from: "12,21") == "12,21")
  }

  @Test func partsThatAreNotIdsAreKept() {
    #expect(SuggestionContactList.removing([5], from: "x,5,,9") == "x,,9")
  }

  @Test func theFirstRunSweepsAndThenOnceAPeriod() {
    let now = UTCInstant(seconds: 2_000_000_000)
    #expect(ErasureWindows.sweepIsDue(lastSweep: nil, now: now))
    #expect(!ErasureWindows.sweepIsDue(lastSweep: now - .seconds(6 * 86_400), now: now))
    #expect(ErasureWindows.sweepIsDue(lastSweep: now - .seconds(7 * 86_400), now: now))
    // A clock set back (a backfill) does not sweep again.
    #expect(!ErasureWindows.sweepIsDue(lastSweep: now + .seconds(86_400), now: now))
  }
}
