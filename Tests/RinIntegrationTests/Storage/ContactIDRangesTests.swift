import RinTestSupport
import Testing

@testable import RinStorage

@Suite("Contact id ranges", .onItsOwnThread)
struct ContactIDRangesTests {
  @Test func consecutiveIDsAreOneRange() throws {
    let ranges = try #require(ContactIDRanges(sortedIDs: Array(10...500)))
    #expect(ranges.ranges == [10...500])
    #expect(ranges.padded.count == ContactIDRanges.limit)
    #expect(ranges.padded.last.map { [$0.low, $0.high] } == [1, 0], "unused branches are empty")
  }

  @Test func theWidestGapsSplitAndTheNarrowOnesAreReadThrough() throws {
    // Nine runs: the eight widest gaps can't all split, so the narrowest (3 ids) is read through.
    var ids: [Int64] = []
    for start in [0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 7_103] {
      ids += (Int64(start)..<Int64(start + 100))
    }
    let ranges = try #require(ContactIDRanges(sortedIDs: ids))
    #expect(ranges.ranges.count == ContactIDRanges.limit)
    #expect(ranges.ranges.last == 7_000...7_202)
    #expect(ranges.ranges.first == 0...99)
  }

  @Test func scatteredIDsAreProbedInstead() {
    let ids = (0..<2_000).map { Int64($0) * 50 }
    #expect(ContactIDRanges(sortedIDs: ids) == nil)
  }

  @Test func noContactsNoRanges() throws {
    #expect(try #require(ContactIDRanges(sortedIDs: [])).ranges.isEmpty)
  }
}
