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
}
