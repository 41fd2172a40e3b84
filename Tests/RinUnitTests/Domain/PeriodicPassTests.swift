import RinDomain
import RinTestSupport
import Testing

@Suite("The periodic pass spreads blocks of contact ids over the period", .onItsOwnThread)
struct PeriodicPassTests {
  static let hour: Int64 = 3_600
  static let day: Int64 = 86_400
  static let week = 7 * day
  /// 2026-11-22T02:30:00Z, the nightly's slot.
  static let firstNight: Int64 = 1_795_314_600

  /// `PeriodicPass.isDue` over Unix seconds, as the simulation counts them.
  static func isDue(_ key: Int64, passedAt: Int64, now: Int64, period: Int64) -> Bool {
    PeriodicPass.isDue(
      key: key, passedAt: UTCInstant(seconds: passedAt), now: UTCInstant(seconds: now),
      period: .seconds(period))
  }

  /// Runs every `interval` after a first at `firstNight` (which only starts the clock); each run
  /// passes the keys due since the run before. Returns the keys passed by each run and each key's
  /// instants of passing.
  static func simulate(_ keys: [Int64], period: Int64, runs: Int, interval: Int64 = day)
    -> (perRun: [Int], passes: [Int64: [Int64]])
  {
    var passes: [Int64: [Int64]] = [:]
    var perRun: [Int] = []
    for run in 1...runs {
      let (before, now) = (firstNight + Int64(run - 1) * interval, firstNight + Int64(run) * interval)
      let due = keys.filter { Self.isDue($0, passedAt: before, now: now, period: period) }
      for key in due { passes[key, default: []].append(now) }
      perRun.append(due.count)
    }
    return (perRun, passes)
  }

  /// Each of `counts` within `tolerance` of `expected`.
  static func near(_ counts: ArraySlice<Int>, _ expected: Double, tolerance: Double = 0.2) -> Bool {
    counts.allSatisfy { abs(Double($0) - expected) <= tolerance * expected }
  }

  /// Block numbers as they come: consecutive from zero, one shard's of eight, past 32 bits.
  static let clusters: [(String, [Int64])] = [
    ("consecutive", (0..<7_000).map { Int64($0) }),
    ("one shard of eight", (0..<7_000).map { 3 + 8 * Int64($0) }),
    ("past 2^32", (0..<7_000).map { (1 << 32) + Int64($0) }),
  ]

  @Test(arguments: clusters)
  func eachNightPassesASeventhAndEveryBlockOnceAWeek(_ name: String, keys: [Int64]) {
    let (perRun, passes) = Self.simulate(keys, period: Self.week, runs: 28)
    #expect(Self.near(perRun[...], Double(keys.count) / 7), "\(name): \(perRun)")
    #expect(keys.allSatisfy { passes[$0]?.count == 4 }, "\(name): four weeks, four passes each")
    let gaps = passes.values.flatMap { zip($0.dropFirst(), $0).map { $0 - $1 } }
    #expect(gaps.allSatisfy { $0 == Self.week }, "\(name): every gap is exactly the period")
  }

  @Test func aPeriodOfOneDayOrLessPassesEveryBlockEveryRun() {
    let keys = (0..<500).map { Int64($0) }
    #expect(Self.simulate(keys, period: Self.day, runs: 10).perRun.allSatisfy { $0 == keys.count })
    #expect(Self.simulate(keys, period: Self.hour, runs: 5).perRun.allSatisfy { $0 == keys.count })
    #expect(Self.simulate(keys, period: 0, runs: 3).perRun.allSatisfy { $0 == keys.count })
    #expect(Self.simulate(keys, period: -5, runs: 3).perRun.allSatisfy { $0 == keys.count })
  }

  /// 3.5 days: nightly runs pass each block every 3 or 4 nights, about 2/7 of them a night.
  @Test func aPeriodNotAWholeNumberOfDaysStillSpreads() {
    let keys = (0..<7_000).map { Int64($0) }
    let (perRun, passes) = Self.simulate(keys, period: 3 * Self.day + 12 * Self.hour, runs: 28)
    #expect(Self.near(perRun[...], Double(keys.count) * 2 / 7), "\(perRun)")
    #expect(keys.allSatisfy { passes[$0]?.count == 8 }, "28 nights of 3.5 days: 8 passes each")
  }

  /// A night missed: the next run passes both nights' blocks, and none twice.
  @Test func aMissedNightIsMadeUpByTheNext() {
    let keys = (0..<7_000).map { Int64($0) }
    let now = Self.firstNight + 3 * Self.day
    let twoNights = keys.filter {
      Self.isDue($0, passedAt: Self.firstNight + Self.day, now: now, period: Self.week)
    }
    let second = keys.filter {
      Self.isDue($0, passedAt: Self.firstNight + Self.day, now: now - Self.day, period: Self.week)
    }
    let third = keys.filter { Self.isDue($0, passedAt: now - Self.day, now: now, period: Self.week) }
    #expect(Set(twoNights) == Set(second + third))
    #expect(Set(second).isDisjoint(with: third))
  }

  @Test func rangesMergeAdjacentBlocksAndShardsDivideThem() {
    let size = PeriodicPass.blockSize
    let maxID = 700 * size - 1
    let passedAt = UTCInstant(seconds: Self.firstNight)
    let now = UTCInstant(seconds: Self.firstNight + Self.day)
    func blocks(_ ranges: [Range<Int64>]) -> [Int64] {
      ranges.flatMap { stride(from: $0.lowerBound, to: $0.upperBound, by: Int(size)).map { $0 / size } }
    }
    let whole = PeriodicPass.rangesDue(
      maxContactID: maxID, passedAt: passedAt, now: now, period: .seconds(Self.week))
    #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "merged, ascending")
    #expect(whole.allSatisfy { $0.lowerBound % size == 0 && $0.upperBound % size == 0 })
    #expect(Self.near([blocks(whole).count][...], 100), "\(blocks(whole).count) of 700 blocks")
    let shards = (0..<3).map {
      blocks(
        PeriodicPass.rangesDue(
          maxContactID: maxID, passedAt: passedAt, now: now, period: .seconds(Self.week), shard: ($0, 3)))
    }
    #expect(shards.joined().sorted() == blocks(whole), "the shards' blocks are the whole run's, once each")
    for (index, shard) in shards.enumerated() { #expect(shard.allSatisfy { $0 % 3 == Int64(index) }) }
    let all = PeriodicPass.rangesDue(
      maxContactID: maxID, passedAt: passedAt, now: now.advanced(by: Self.week), period: .seconds(Self.week))
    #expect(all == [0..<(700 * size)], "a period or more since the last pass: every block, as one range")
    #expect(
      PeriodicPass.rangesDue(maxContactID: maxID, passedAt: now, now: now, period: .seconds(Self.week))
        .isEmpty)
    #expect(
      PeriodicPass.rangesDue(maxContactID: -1, passedAt: passedAt, now: now, period: .seconds(0)).isEmpty)
  }

  @Test func aClockBeforeTheLastPassOrNearTheEpoch() {
    for key in [Int64.min, -1, 0, 1, Int64.max] {
      #expect(!Self.isDue(key, passedAt: 1_000, now: 999, period: Self.week))
      let offset = PeriodicPass.offset(key: key, periodSeconds: Self.week)
      #expect(offset >= 0 && offset < Self.week)
      let instant = PeriodicPass.lastInstant(key: key, atOrBefore: 5, period: .seconds(Self.week)).seconds
      #expect(instant <= 5 && 5 - instant < Self.week)
      #expect(Self.isDue(key, passedAt: 5 - Self.week, now: 5, period: Self.week))
    }
  }
}
