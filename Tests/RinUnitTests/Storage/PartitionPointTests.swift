import RinTestSupport
import Testing

@testable import RinStorage

/// The binary search that `OwnerSet` and `OwnerKeyedRows` share: the first place a sorted run
/// stops being before a key.
@Suite("Partition point of a sorted run", .onItsOwnThread)
struct PartitionPointTests {
  let run: [Int64] = [2, 4, 4, 4, 9, 15]

  @Test(arguments: [
    (Int64(1), 0), (2, 0), (3, 1), (4, 1), (5, 4), (9, 4), (10, 5), (15, 5), (16, 6),
  ])
  func theFirstIndexNotBeforeTheKey(key: Int64, expected: Int) {
    #expect(partitionPoint(run.indices) { run[$0] < key } == expected)
  }

  @Test func aSubrangeAndAnEmptyRange() {
    #expect(partitionPoint(2..<5) { run[$0] < 9 } == 4)
    #expect(partitionPoint(2..<5) { run[$0] < 100 } == 5)
    #expect(partitionPoint(3..<3) { _ in true } == 3)
  }
}
