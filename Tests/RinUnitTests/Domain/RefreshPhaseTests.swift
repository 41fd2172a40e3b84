import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("enrichment-fetch's refresh phases", .onItsOwnThread)
struct RefreshPhaseTests {
  static let day: Int64 = 86_400
  static let phases = RefreshPhase(shortestTTL: .seconds(30 * day))

  /// The instant `hours` into day `number` (UTC days since the epoch).
  static func at(day number: Int64, hours: Int64 = 2) -> UTCInstant {
    UTCInstant(seconds: number * day + hours * 3_600)
  }

  @Test func thePeriodIsTheShortestLifetimeInWholeDaysAndAtLeastOne() {
    #expect(Self.phases.periodDays == 30)
    #expect(RefreshPhase(shortestTTL: .seconds(30 * Self.day + 3_600)).periodDays == 30)
    #expect(RefreshPhase(shortestTTL: .seconds(3_600)).periodDays == 1)
  }

  @Test func ownersSpreadOverEveryDayOfThePeriod() {
    var perDay = [Int](repeating: 0, count: 30)
    for owner in UserID(1)...30_000 { perDay[Int(Self.phases.phase(of: owner))] += 1 }
    // 1,000 a day on average: every day within 10 % of it, consecutive ids included.
    #expect(perDay.allSatisfy { (900...1_100).contains($0) }, "\(perDay)")
    let firstNight = (UserID(1)...30).map { Self.phases.phase(of: $0) }
    #expect(Set(firstNight).count > 15, "consecutive ids fall on different days: \(firstNight)")
  }

  @Test func theHorizonIsTheStartOfTheOwnersNextVisitDayAfterToday() {
    let owner: UserID = 42
    let phase = Self.phases.phase(of: owner)
    // On its visit day the horizon is a whole period ahead, not today.
    let visit = Self.at(day: 20_010 * 30 + phase)
    let next = UTCInstant(seconds: (20_010 * 30 + phase + 30) * Self.day)
    #expect(Self.phases.horizon(owner: owner, now: visit) == next)
    // The day after, still that next visit; the day before a visit, the visit's start.
    #expect(Self.phases.horizon(owner: owner, now: Self.at(day: 20_010 * 30 + phase + 1)) == next)
    #expect(Self.phases.horizon(owner: owner, now: Self.at(day: 20_010 * 30 + phase + 29)) == next)
  }

  @Test func anOwnerIsDueOnItsLastVisitDayBeforeItsEarliestAnswerExpires() {
    let owner: UserID = 7
    let visitDay = 20_010 * 30 + Self.phases.phase(of: owner)
    let now = Self.at(day: visitDay)
    // Asked at the visit with a 30-day lifetime: due at the start of the next visit day, the
    // day the answer expires, which that night's run asks again before it does.
    let asked = now + .seconds(30 * Self.day)
    #expect(Self.phases.due(owner: owner, expiry: asked, now: now).seconds == (visitDay + 30) * Self.day)
    // A 90-day answer: due three visits on; one of 45 days: the visit a period on (early).
    #expect(
      Self.phases.due(owner: owner, expiry: now + .seconds(90 * Self.day), now: now).seconds
        == (visitDay + 90) * Self.day)
    #expect(
      Self.phases.due(owner: owner, expiry: now + .seconds(45 * Self.day), now: now).seconds
        == (visitDay + 30) * Self.day)
    // An answer asked between visits (a new contact) is asked again at the next visit.
    let between = Self.at(day: visitDay + 10)
    #expect(
      Self.phases.due(owner: owner, expiry: between + .seconds(30 * Self.day), now: between).seconds
        == (visitDay + 30) * Self.day)
  }

  @Test func anAnswerTheVisitDidNotAskAgainIsDueAtTheNextRun() {
    let owner: UserID = 7
    let visitDay = 20_010 * 30 + Self.phases.phase(of: owner)
    let now = Self.at(day: visitDay)
    // Left out (the day's budget), it expires before the next visit: due now, the next run.
    let soon = now + .seconds(5 * Self.day)
    #expect(Self.phases.due(owner: owner, expiry: soon, now: now) <= now)
    // Expired or unanswered: as it was.
    #expect(Self.phases.due(owner: owner, expiry: now, now: now) == now)
  }

  @Test func aFirstAnswerOfOnePeriodIsKeptForItsTTL() {
    let now = Self.at(day: 20_010 * 30 + 7)
    for key in (0..<100).map({ "key-\($0)" }) {
      #expect(
        Self.phases.firstExpiry(of: key, askedAt: now, ttl: .seconds(30 * Self.day)) == now
          + .seconds(30 * Self.day))
      #expect(
        Self.phases.firstExpiry(of: key, askedAt: now, ttl: .seconds(59 * Self.day)) == now
          + .seconds(59 * Self.day))
    }
  }

  @Test func aFirstAnswerOfThreePeriodsIsKeptOneTwoOrThreeOfThemByItsKey() {
    let now = Self.at(day: 20_010 * 30 + 7)
    var kept: [Int64: Int] = [:]
    for key in (0..<3_000).map({ "key-\($0)" }) {
      let expiry = Self.phases.firstExpiry(of: key, askedAt: now, ttl: .seconds(90 * Self.day))
      kept[(expiry.seconds - now.seconds) / Self.day, default: 0] += 1
      #expect(
        Self.phases.firstExpiry(of: key, askedAt: now + .seconds(3_600), ttl: .seconds(90 * Self.day))
          == expiry + .seconds(3_600))
    }
    #expect(Set(kept.keys) == [30, 60, 90])
    #expect(kept.values.allSatisfy { (900...1_100).contains($0) }, "\(kept)")
  }

  /// 3,000 keys, each in one to five books of 600 owners, first asked on one night; each run asks
  /// a key again when its answer expires before an owner visiting that night visits again, as
  /// the job does. Every period after the first asks about a third of the keys (a month of the
  /// herd would ask all of them), and no key more often than its TTL alone would: after its first
  /// answer, never twice within two periods.
  @Test func oneNightsAnswersComeDueOverThreePeriodsAndStaySpread() {
    let ttl = Duration.seconds(90 * Self.day)
    var generator = SplitMix64(seed: 7)
    let books = (0..<3_000).map { _ in
      (0..<[1, 1, 1, 2, 3, 5][Int(generator.next() % 6)]).map { _ in UserID(Int64(generator.next() % 600) + 1)
      }
    }
    let firstDay: Int64 = 20_010 * 30 + 11
    var expiry: [UTCInstant?] = Array(repeating: nil, count: books.count)
    var asks: [[Int64]] = Array(repeating: [], count: books.count)
    for day in firstDay..<(firstDay + 450) {
      let now = Self.at(day: day)
      for (index, owners) in books.enumerated() {
        let visiting = owners.filter { Self.phases.phase(of: $0) == day % 30 }
        if let current = expiry[index] {
          guard let horizon = visiting.map({ Self.phases.horizon(owner: $0, now: now) }).max(),
            current <= horizon
          else { continue }
          expiry[index] = now + ttl
        } else {
          expiry[index] = Self.phases.firstExpiry(of: "key-\(index)", askedAt: now, ttl: ttl)
        }
        asks[index].append(day)
      }
    }
    var perPeriod: [Int64: Int] = [:]
    for days in asks {
      #expect(zip(days.dropFirst(), days.dropFirst(2)).allSatisfy { $1 - $0 > 60 }, "\(days)")
      for day in days.dropFirst() { perPeriod[day / 30, default: 0] += 1 }
    }
    let periods = perPeriod.keys.sorted().dropFirst().dropLast()
    #expect(periods.count >= 12)
    #expect(
      periods.allSatisfy { (750...1_500).contains(perPeriod[$0]!) }, "\(perPeriod.sorted { $0.key < $1.key })"
    )
  }
}

/// A seeded generator, so that the simulation's books are the same every run.
private struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
