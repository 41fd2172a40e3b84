import RinDomain
import Testing

@Suite("Periodic passes spread over the period")
struct PeriodicPassTests {
  static let hour: Int64 = 3_600
  static let day: Int64 = 86_400
  static let week = 7 * day
  /// 2026-11-22T02:30:00Z, the nightly's slot.
  static let firstNight: Int64 = 1_795_314_600

  /// `PeriodicPass.isDue` over Unix seconds, as the simulation counts them.
  static func isDue(_ owner: Int64, examinedAt: Int64, now: Int64, period: Int64) -> Bool {
    PeriodicPass.isDue(
      owner: owner, examinedAt: UTCInstant(seconds: examinedAt), now: UTCInstant(seconds: now),
      period: .seconds(period))
  }

  /// `PeriodicPass.lastInstant` over Unix seconds.
  static func lastInstant(_ owner: Int64, atOrBefore now: Int64, period: Int64) -> Int64 {
    PeriodicPass.lastInstant(owner: owner, atOrBefore: UTCInstant(seconds: now), period: .seconds(period))
      .seconds
  }

  /// Runs every `interval` from `firstNight`, where the first examines everyone and each later
  /// run examines the owners `PeriodicPass` finds due (nothing else changes). Returns the
  /// owners examined by each run after the first, and each owner's longest gap.
  static func simulate(_ owners: [Int64], period: Int64, runs: Int, interval: Int64 = day)
    -> (perRun: [Int], longestGap: [Int64: Int64], examinations: [Int64: Int])
  {
    var examinedAt = Dictionary(uniqueKeysWithValues: owners.map { ($0, firstNight) })
    var longest: [Int64: Int64] = [:]
    var count: [Int64: Int] = [:]
    var perRun: [Int] = []
    for run in 1...runs {
      let now = firstNight + Int64(run) * interval
      var examined = 0
      for owner in owners
      where Self.isDue(owner, examinedAt: examinedAt[owner]!, now: now, period: period) {
        longest[owner] = max(longest[owner] ?? 0, now - examinedAt[owner]!)
        examinedAt[owner] = now
        count[owner, default: 0] += 1
        examined += 1
      }
      perRun.append(examined)
    }
    return (perRun, longest, count)
  }

  /// Each of `counts` within `tolerance` of `expected`.
  static func near(_ counts: ArraySlice<Int>, _ expected: Double, tolerance: Double = 0.2) -> Bool {
    counts.allSatisfy { abs(Double($0) - expected) <= tolerance * expected }
  }

  /// Owner ids as they come: consecutive, one day's draw of the bench, round numbers, strides
  /// of a power of two, past 32 bits.
  static let clusters: [(String, [Int64])] = [
    ("consecutive", (1...7_000).map { Int64($0) }),
    ("one day's draw: id % 97 = 42", (0..<7_000).map { 42 + 97 * Int64($0) }),
    ("multiples of 1,000", (1...7_000).map { 1_000 * Int64($0) }),
    ("powers-of-two strides", (0..<7_000).map { Int64($0) << 20 }),
    ("past 2^32", (0..<7_000).map { (1 << 32) + Int64($0) }),
  ]

  @Test(arguments: clusters)
  func afterANightThatExaminedEveryoneEachNightExaminesASeventh(_ name: String, owners: [Int64]) {
    let (perRun, longest, count) = Self.simulate(owners, period: Self.week, runs: 28)
    let expected = Double(owners.count) / 7
    #expect(Self.near(perRun[...], expected), "\(name): \(perRun)")
    #expect(longest.values.allSatisfy { $0 <= Self.week }, "\(name): never later than full_every")
    // The first week is the spread itself (some owners come round after a night); from then on
    // every gap is exactly the period, and every owner is examined once a week.
    #expect(count.values.allSatisfy { $0 == 4 }, "\(name)")
    #expect(longest.values.allSatisfy { $0 == Self.week }, "\(name)")
  }

  @Test func aPeriodOfOneDayExaminesEveryoneEveryNight() {
    let owners = (1...500).map { Int64($0) }
    let (perRun, _, _) = Self.simulate(owners, period: Self.day, runs: 10)
    #expect(perRun.allSatisfy { $0 == owners.count })
  }

  @Test func aPeriodShorterThanTheRunIntervalExaminesEveryoneEveryRun() {
    let owners = (1...200).map { Int64($0) }
    #expect(Self.simulate(owners, period: Self.hour, runs: 5).perRun.allSatisfy { $0 == owners.count })
    #expect(Self.simulate(owners, period: 0, runs: 3).perRun.allSatisfy { $0 == owners.count })
    #expect(Self.simulate(owners, period: -5, runs: 3).perRun.allSatisfy { $0 == owners.count })
  }

  /// 3.5 days: nightly runs examine each owner every 3 or 4 nights (the old rule: every 4),
  /// about 2/7 of the owners a night.
  @Test func aPeriodNotAWholeNumberOfDaysStillSpreads() {
    let owners = (1...7_000).map { Int64($0) }
    let period = 3 * Self.day + 12 * Self.hour
    let (perRun, longest, count) = Self.simulate(owners, period: period, runs: 28)
    #expect(Self.near(perRun[...], Double(owners.count) * 2 / 7), "\(perRun)")
    #expect(longest.values.allSatisfy { $0 <= 4 * Self.day }, "the first run at or after full_every")
    #expect(count.values.allSatisfy { $0 == 8 }, "28 nights of 3.5 days: 8 passes each")
  }

  /// 36 hours with runs every hour: a 36th of the owners an hour, each every 36 hours.
  @Test func hourlyRunsOverAPeriodOfHours() {
    let owners = (1...3_600).map { Int64($0) }
    let period = 36 * Self.hour
    let (perRun, longest, _) = Self.simulate(owners, period: period, runs: 72, interval: Self.hour)
    #expect(Self.near(perRun[...], 100, tolerance: 0.35), "\(perRun)")
    #expect(longest.values.allSatisfy { $0 == period })
  }

  @Test func anOwnerExaminedForAChangeKeepsItsNight() {
    let owner: Int64 = 123_457
    let instant = Self.lastInstant(owner, atOrBefore: Self.firstNight, period: Self.week)
    #expect(instant <= Self.firstNight && Self.firstNight - instant < Self.week)
    #expect(PeriodicPass.offset(owner: owner, periodSeconds: Self.week) == instant % Self.week)
    // Examined (changed) a day after its instant: not due until the next instant, a week on.
    let changed = instant + Self.day
    for hours in stride(from: Int64(0), to: 6 * 24, by: 1) {
      #expect(
        !Self.isDue(owner, examinedAt: changed, now: changed + hours * Self.hour, period: Self.week))
    }
    #expect(
      Self.isDue(owner, examinedAt: changed, now: instant + Self.week, period: Self.week))
    #expect(
      !Self.isDue(owner, examinedAt: changed, now: instant + Self.week - 1, period: Self.week))
    // Examined at the instant itself: that was the pass.
    #expect(
      !Self.isDue(owner, examinedAt: instant, now: instant + Self.day, period: Self.week))
  }

  @Test func aClockBeforeTheLastExaminationOrNearTheEpoch() {
    for owner in [Int64.min, -1, 0, 1, Int64.max] {
      #expect(!Self.isDue(owner, examinedAt: 1_000, now: 999, period: Self.week))
      let offset = PeriodicPass.offset(owner: owner, periodSeconds: Self.week)
      #expect(offset >= 0 && offset < Self.week)
      let instant = Self.lastInstant(owner, atOrBefore: 5, period: Self.week)
      #expect(instant <= 5 && 5 - instant < Self.week)
      #expect(Self.isDue(owner, examinedAt: 5 - Self.week, now: 5, period: Self.week))
    }
  }
}
