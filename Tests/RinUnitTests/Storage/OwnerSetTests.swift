import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// How a batch's owners become a condition: a dense run of ids (a window of every user, or of
/// one shard's) reads one index range, anything else an `IN` list; a range keeps only the
/// owners asked for.
@Suite("Owner sets as SQL conditions", .onItsOwnThread)
struct OwnerSetTests {
  @Test func aWindowOfConsecutiveIdsIsOneRange() {
    let owners = OwnerSet(Array(101...600))
    #expect(owners.isRange)
    #expect(owners.condition(on: "user_id").text == "user_id BETWEEN ? AND ?")
    #expect(owners.condition(on: "user_id").arguments == [.integer(101), .integer(600)])
  }

  /// Deleted users and gaps inside the window are read, then dropped by `includes`.
  @Test func aRangeDropsTheIdsBetweenThatWereNotAsked() {
    let ids = Array(1...100).filter { $0 % 10 != 0 }
    let owners = OwnerSet(ids.map { UserID(rawValue: Int64($0)) })
    #expect(owners.isRange)
    #expect(owners.includes(9))
    #expect(!owners.includes(10))
    #expect(!owners.includes(101))
    #expect(!owners.includes(UserID?.none))
  }

  /// A shard's window (`id mod 4 = 3`) reads its range with the stride as a filter.
  @Test func aShardsWindowIsARangeWithItsStride() {
    let owners = OwnerSet(stride(from: Int64(7), through: 4_003, by: 4).map(UserID.init(rawValue:)))
    let condition = owners.condition(on: "k.user_id")
    #expect(condition.text == "k.user_id BETWEEN ? AND ? AND k.user_id % ? = ?")
    #expect(condition.arguments == [.integer(7), .integer(4_003), .integer(4), .integer(3)])
    #expect(owners.includes(11))
    #expect(!owners.includes(12))
  }

  /// Beyond 8 shards the range would walk more than 8 entries per owner asked.
  @Test func aWindowOfOneOfSixteenShardsIsAList() {
    #expect(!OwnerSet(stride(from: Int64(5), through: 16_005, by: 16).map(UserID.init(rawValue:))).isRange)
    #expect(OwnerSet(stride(from: Int64(5), through: 8_005, by: 8).map(UserID.init(rawValue:))).isRange)
  }

  /// Scattered owners (a night's changed ones) and short lists keep the list, which reads only
  /// them: every row is the batch's.
  @Test(arguments: [
    [Int64(5), 900, 17_000, 40_000] + (1...20).map { Int64($0) * 1_000 + 3 },
    (1...15).map { Int64($0) },
  ])
  func scatteredOrFewOwnersKeepTheList(ids: [Int64]) {
    let owners = OwnerSet(ids.map(UserID.init(rawValue:)))
    #expect(!owners.isRange)
    let condition = owners.condition(on: "user_id")
    #expect(condition.text == "user_id IN (\(SQLDialect.placeholders(Set(ids).count)))")
    #expect(condition.arguments == Set(ids).sorted().map(SQLValue.integer))
    #expect(owners.includes(123_456))
  }

  /// A quarter more ids than asked is the most a range may read.
  @Test func aRangeReadsAtMostAQuarterMore() {
    let dense = (0..<80).map { Int64($0) } + (0..<20).map { Int64(200 + $0) }
    #expect(!OwnerSet(dense.map(UserID.init(rawValue:))).isRange)
    let holes = (0..<100).map { Int64($0) }.filter { $0 % 5 != 0 }
    #expect(OwnerSet(holes.map(UserID.init(rawValue:))).isRange)
  }

  @Test func noOwnersIsAListThatMatchesNothing() {
    let owners = OwnerSet([])
    #expect(owners.condition(on: "user_id").text == "user_id IN (?)")
    #expect(owners.condition(on: "user_id").arguments == [.null])
  }
}
