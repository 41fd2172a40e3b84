import RinDomain
import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("freshness: the rules that judge a user stale", .onItsOwnThread)
struct FreshnessRulesTests {
  static let hour: Int64 = 3_600
  static let day: Int64 = 86_400
  /// 2026-11-24T06:10:00Z.
  static let now = UTCInstant(seconds: 1_795_500_600)
  static let upcoming = FreshnessPromise(output: .upcoming, maxAge: .seconds(2 * hour))
  static let circles = FreshnessPromise(
    output: .circleSuggestions, maxAge: .seconds(26 * hour), fullEvery: .seconds(28 * day))
  static let createdAt = UTCInstant(seconds: 1_790_000_000)
  static let badges = FreshnessPromise(output: .badges, maxAge: .seconds(26 * hour))

  static func date(_ text: String) -> CalendarDate { CalendarDate(text)! }

  @Test func upcomingRowsForTheDateTheZoneShowedAtTheCutoffAreFresh() {
    // The cutoff is 04:10 UTC on the 24th: the 24th in UTC and in Tokyo, still the 23rd in New York.
    for (zone, today) in [
      ("UTC", "2026-11-24"), ("Asia/Tokyo", "2026-11-24"), ("America/New_York", "2026-11-23"),
    ] {
      #expect(
        FreshnessRules.upcoming(
          rowsFor: Self.date(today), zone: zone, createdAt: Self.createdAt, promise: Self.upcoming,
          now: Self.now)
          == nil, "\(zone)")
    }
  }

  @Test func upcomingRowsForTheDayBeforeAreStaleSinceTheLocalMidnightThatEndedIt() {
    let utc = FreshnessRules.upcoming(
      rowsFor: Self.date("2026-11-23"), zone: "UTC", createdAt: Self.createdAt, promise: Self.upcoming,
      now: Self.now)
    #expect(utc == Self.date("2026-11-24").startOfDay)
    // Tokyo is UTC+9: its midnight of the 24th was 15:00 UTC on the 23rd.
    let tokyo = FreshnessRules.upcoming(
      rowsFor: Self.date("2026-11-23"), zone: "Asia/Tokyo", createdAt: Self.createdAt, promise: Self.upcoming,
      now: Self.now)
    #expect(tokyo == Self.date("2026-11-24").startOfDay.advanced(by: -9 * Self.hour))
  }

  @Test func upcomingWithoutStateIsStaleSinceTheUserSignedUpAndAnUnknownZoneIsReadAsUTC() {
    #expect(
      FreshnessRules.upcoming(
        rowsFor: nil, zone: "UTC", createdAt: Self.createdAt, promise: Self.upcoming, now: Self.now)
        == Self.createdAt)
    #expect(
      FreshnessRules.upcoming(
        rowsFor: Self.date("2026-11-24"), zone: "Mars/Olympus", createdAt: Self.createdAt,
        promise: Self.upcoming, now: Self.now) == nil)
    #expect(
      FreshnessRules.upcoming(
        rowsFor: Self.date("2026-11-23"), zone: "GMT+5", createdAt: Self.createdAt, promise: Self.upcoming,
        now: Self.now) == Self.date("2026-11-24").startOfDay)
  }

  @Test func anOwnerExaminedLongAgoIsFreshWhileTheirShardIsCheckedForChanges() {
    let examined = Self.now.advanced(by: -20 * Self.day)
    #expect(
      FreshnessRules.examined(
        examinedAt: examined, dueAt: nil, watermark: Self.now.advanced(by: -4 * Self.hour),
        createdAt: Self.createdAt, promise: Self.circles, now: Self.now) == nil)
  }

  @Test func eachReasonMakesAnOwnerStaleAndTheOldestInstantIsReported() {
    let fresh = Self.now.advanced(by: -4 * Self.hour)
    // Never examined.
    #expect(
      FreshnessRules.examined(
        examinedAt: nil, dueAt: nil, watermark: fresh, createdAt: Self.createdAt, promise: Self.circles,
        now: Self.now) == Self.createdAt)
    // Examined longer ago than full_every + max age.
    let old = Self.now.advanced(by: -(29 * Self.day + 3 * Self.hour))
    #expect(
      FreshnessRules.examined(
        examinedAt: old, dueAt: nil, watermark: fresh, createdAt: Self.createdAt, promise: Self.circles,
        now: Self.now) == old)
    // Just inside full_every + max age.
    let inside = Self.now.advanced(by: -(29 * Self.day + Self.hour))
    #expect(
      FreshnessRules.examined(
        examinedAt: inside, dueAt: nil, watermark: fresh, createdAt: Self.createdAt, promise: Self.circles,
        now: Self.now) == nil)
    // Due more than max age ago.
    let examined = Self.now.advanced(by: -3 * Self.day)
    #expect(
      FreshnessRules.examined(
        examinedAt: examined, dueAt: Self.now.advanced(by: -27 * Self.hour), watermark: fresh,
        createdAt: Self.createdAt, promise: Self.circles, now: Self.now) == examined)
    #expect(
      FreshnessRules.examined(
        examinedAt: examined, dueAt: Self.now.advanced(by: -25 * Self.hour), watermark: fresh,
        createdAt: Self.createdAt, promise: Self.circles, now: Self.now) == nil)
    // The shard not checked for changes since before the cutoff, or never.
    let lapsed = Self.now.advanced(by: -30 * Self.hour)
    #expect(
      FreshnessRules.examined(
        examinedAt: Self.now.advanced(by: -Self.hour), dueAt: nil, watermark: lapsed,
        createdAt: Self.createdAt,
        promise: Self.circles, now: Self.now) == lapsed)
    #expect(
      FreshnessRules.examined(
        examinedAt: Self.now.advanced(by: -Self.hour), dueAt: nil, watermark: nil, createdAt: Self.createdAt,
        promise: Self.circles, now: Self.now) == Self.createdAt)
  }

  static func badges(counted: Bool = true, watermark: UTCInstant?) -> UTCInstant? {
    FreshnessRules.badges(
      counted: counted, watermark: watermark, createdAt: Self.createdAt, promise: Self.badges, now: Self.now)
  }

  @Test func badgesAreFreshOnlyWhenCountedAndMarkedAfterTheCutoff() {
    let cutoff = Self.badges.cutoff(now: Self.now)
    // No whole run ever marked the user's shard: stale since they signed up.
    #expect(Self.badges(watermark: nil) == Self.createdAt)
    // A mark at exactly the cutoff is as old as the promise allows, and no fresher.
    #expect(Self.badges(watermark: cutoff) == cutoff)
    #expect(Self.badges(watermark: cutoff.advanced(by: -Self.hour)) == cutoff.advanced(by: -Self.hour))
    #expect(Self.badges(watermark: cutoff.advanced(by: 1)) == nil)
    // No `badge_counts` row: never counted, whatever the mark says.
    #expect(Self.badges(counted: false, watermark: Self.now.advanced(by: -Self.hour)) == Self.createdAt)
    #expect(Self.badges(counted: false, watermark: nil) == Self.createdAt)
  }

  @Test func badgesAreJudgedByTheLatestMarkOfAScopeHoldingTheUser() {
    let cutoff = Self.badges.cutoff(now: Self.now)
    let (old, fresh) = (cutoff.advanced(by: -Self.day), Self.now.advanced(by: -4 * Self.hour))
    // Shard 0/2 ran last night, 1/2 did not; an `all` mark from before the split is older still.
    let split = ChangeWatermarkCover([
      ("0/2", fresh), ("1/2", old), ("all", old.advanced(by: -Self.day)),
    ])
    #expect(Self.badges(watermark: split.latest(for: 4)) == nil)
    #expect(Self.badges(watermark: split.latest(for: 5)) == old)
    #expect(Self.badges(watermark: split.latest(for: -3)) == old, "id mod N is never negative")
    #expect(!split.coversEveryone(after: cutoff))
    // A whole run since (`all`) covers both shards; a later split's part alone covers its own.
    let whole = ChangeWatermarkCover([("0/2", old), ("1/2", old), ("all", fresh)])
    #expect(Self.badges(watermark: whole.latest(for: 5)) == nil)
    #expect(whole.coversEveryone(after: cutoff))
    let oneOfThree = ChangeWatermarkCover([("0/3", fresh), ("1/3", fresh)])
    #expect(Self.badges(watermark: oneOfThree.latest(for: 2)) == Self.createdAt)
    #expect(!oneOfThree.coversEveryone(after: cutoff))
  }

  @Test func theTallyListsTheFirstHundredAndCountsEveryStaleUserByShard() {
    var tally = FreshnessTally(promise: Self.circles, shardCount: 3)
    tally.addPromised(200, shard: 0)
    tally.addPromised(100, shard: 2)
    for user in Int64(1)...150 {
      tally.addStale(user: UserID(rawValue: user), since: Self.now.advanced(by: -user * Self.hour))
    }
    #expect(tally.users == 300 && tally.stale == 150)
    #expect(tally.staleUsers == Array(1...100))
    #expect(tally.oldest == Self.now.advanced(by: -150 * Self.hour))
    #expect(tally.oldestAge(now: Self.now) == 150 * Self.hour)
    #expect(tally.byShard[0] == FreshnessTally.ShardCounts(users: 200, stale: 50))
    #expect(tally.byShard[1] == FreshnessTally.ShardCounts(users: 0, stale: 50))
    #expect(tally.byShard[2] == FreshnessTally.ShardCounts(users: 100, stale: 50))
    #expect(tally.shard(of: -4) == 2, "id mod N is never negative")
    let none = FreshnessTally(promise: Self.circles, shardCount: nil)
    #expect(none.oldestAge(now: Self.now) == 0 && none.byShard.isEmpty)
  }
}
