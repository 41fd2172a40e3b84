import RinDomain
import RinTestSupport
import Testing

@Suite(
  "ChangeWatermark: when a night finds changed owners in one pass, and when it moves the mark",
  .onItsOwnThread)
struct ChangeWatermarkTests {
  let mark = ChangeWatermark(verifiedThrough: 1_000, windowEnd: UTCInstant(seconds: 86_400 * 10))

  @Test func aWholeShardAfterAMarkUsesOnePassFromTheMark() {
    #expect(
      ChangeWatermark.finding(
        stored: mark, windowEnd: UTCInstant(seconds: 86_400 * 11), explicitUsers: false,
        stampIndexesReady: true)
        == .changedSince(1_000))
    // The same night run again (a retry after a failure) also starts from the mark.
    #expect(
      ChangeWatermark.finding(
        stored: mark, windowEnd: UTCInstant(seconds: 86_400 * 10), explicitUsers: false,
        stampIndexesReady: true)
        == .changedSince(1_000))
  }

  @Test func eachOwnerIsAskedWithoutAMarkForAListForABackfillOrWithoutTheIndexes() {
    #expect(
      ChangeWatermark.finding(
        stored: nil, windowEnd: UTCInstant(seconds: 86_400 * 11), explicitUsers: false,
        stampIndexesReady: true)
        == .eachOwner)
    #expect(
      ChangeWatermark.finding(
        stored: mark, windowEnd: UTCInstant(seconds: 86_400 * 11), explicitUsers: true,
        stampIndexesReady: true)
        == .eachOwner)
    #expect(
      ChangeWatermark.finding(
        stored: mark, windowEnd: UTCInstant(seconds: 86_400 * 9), explicitUsers: false,
        stampIndexesReady: true)
        == .eachOwner)
    #expect(
      ChangeWatermark.finding(
        stored: mark, windowEnd: UTCInstant(seconds: 86_400 * 11), explicitUsers: false,
        stampIndexesReady: false)
        == .eachOwner)
  }

  @Test func onlyAWholeUnresumedWalkNotBehindTheMarkMovesIt() {
    let later = ChangeWatermark(verifiedThrough: 2_000, windowEnd: UTCInstant(seconds: 86_400 * 11))
    #expect(
      ChangeWatermark.after(
        run: 2_000, windowEnd: UTCInstant(seconds: 86_400 * 11), stored: mark, explicitUsers: false,
        resumed: false) == later)
    #expect(
      ChangeWatermark.after(
        run: 2_000, windowEnd: UTCInstant(seconds: 86_400 * 11), stored: nil, explicitUsers: false,
        resumed: false)
        == later)
    // A resumed run's first owners were checked by another process, at another clock.
    #expect(
      ChangeWatermark.after(
        run: 2_000, windowEnd: UTCInstant(seconds: 86_400 * 11), stored: mark, explicitUsers: false,
        resumed: true)
        == nil)
    #expect(
      ChangeWatermark.after(
        run: 2_000, windowEnd: UTCInstant(seconds: 86_400 * 11), stored: mark, explicitUsers: true,
        resumed: false)
        == nil)
    // A backfill checked the owners as of an earlier window: the mark stays.
    #expect(
      ChangeWatermark.after(
        run: 500, windowEnd: UTCInstant(seconds: 86_400 * 9), stored: mark, explicitUsers: false,
        resumed: false)
        == nil)
  }
}
