import RinTestSupport
import Testing

@testable import RinStorage

@Suite("Multi-row statements", .onItsOwnThread)
struct MultiRowStatementTests {
  @Test(arguments: [0, 1, 63, 64, 65, 200, 1_000])
  func chunksCoverEveryRowOnceWithFewDistinctSizes(_ rows: Int) {
    let chunks = MultiRowStatement.chunks(rows)
    #expect(chunks.reduce(0, +) == rows)
    #expect(Set(chunks).isSubset(of: [64, 32, 16, 8, 4, 2, 1]))
    #expect(chunks.count <= rows / 64 + 6)
  }

  @Test func theTextHasOneTupleOfPlaceholdersPerRow() {
    let statement = MultiRowStatement(
      head: "INSERT INTO t (a, b) VALUES", columns: 2, tail: "ON CONFLICT DO NOTHING")
    #expect(statement.text(rows: 2) == "INSERT INTO t (a, b) VALUES (?, ?), (?, ?) ON CONFLICT DO NOTHING")
  }
}
