import RinDomain
import RinJobs
import RinTestSupport
import Testing

/// When an hourly upcoming-birthdays run examines an owner again (docs/JOBS.md "What counts as a
/// change (issue 30)").
@Suite("Upcoming owner state kept between runs", .onItsOwnThread)
struct UpcomingOwnerStateTests {
  static let today = CalendarDate(daysSinceEpoch: 20_780)
  static let reminders: [(id: Int64, contactID: ContactID, dueOn: String?)] = [
    (7, 70, "2026-11-23"), (8, 80, nil), (9, 90, "not a date"),
  ]
  static let digest = UpcomingOwnerState.digest(reminders: reminders, windowDays: 7, feb29: .feb28)
  static let stored = UpcomingOwnerState(
    today: today, zone: "Europe/Berlin", inputsDigest: digest, stampsAfter: 0)

  static func reason(today: CalendarDate = today, zone: String? = "Europe/Berlin", digest: Int64 = digest)
    -> OwnerExamination?
  {
    UpcomingOwnerState.examination(
      stored: stored, today: today, zone: zone, inputsDigest: digest, forced: false)
  }

  @Test func theSameDayZoneAndRemindersNeedNoExamination() {
    #expect(Self.reason() == nil)
    #expect(
      UpcomingOwnerState.examination(
        stored: nil, today: Self.today, zone: nil, inputsDigest: 0, forced: false)
        == .new)
    #expect(
      UpcomingOwnerState.examination(
        stored: Self.stored, today: Self.today, zone: "Europe/Berlin", inputsDigest: Self.digest, forced: true
      )
        == .forced)
  }

  @Test func aNewLocalDateMovesEveryEvent() {
    #expect(Self.reason(today: Self.today.adding(days: 1)) == .due)
    #expect(Self.reason(today: Self.today.adding(days: -1)) == .due, "a zone moved west of the date line")
  }

  /// A date turn is taken from the stored rows only when the date alone moved, forward.
  @Test func onlyADateMovedForwardWithNothingElseChangedIsATurn() throws {
    func turn(days: Int, zone: String? = "Europe/Berlin", digest: Int64 = Self.digest) -> UpcomingWindowTurn?
    {
      Self.stored.turn(
        to: Self.today.adding(days: days), zone: zone, inputsDigest: digest, windowDays: 7, feb29: .feb28)
    }
    let next = try #require(turn(days: 1))
    #expect(next.shift == 1 && next.old.today == Self.today && next.new.days == 7)
    #expect(turn(days: 3)?.shift == 3, "a missed run turns by several days")
    #expect(turn(days: 0) == nil, "the same date: nothing to turn")
    #expect(turn(days: -1) == nil, "a date that went back is computed in full")
    #expect(turn(days: 1, zone: "Europe/Paris") == nil, "another zone text")
    #expect(turn(days: 1, digest: Self.digest &+ 1) == nil, "another reminder or setting")
    #expect(turn(days: 400) == nil, "a year or more: passed occurrences come round again")
  }

  @Test func anotherZoneTextIsAChangeEvenWithTheSameDate() {
    #expect(Self.reason(zone: "Europe/Paris") == .changed)
    #expect(Self.reason(zone: nil) == .changed)
    #expect(Self.reason(zone: "") == .changed)
  }

  @Test func theDigestSeesEveryReminderFieldAndTheSettingsButNotTheOrder() {
    func digest(
      _ rows: [(id: Int64, contactID: ContactID, dueOn: String?)], days: Int = 7, feb29: Feb29Rule = .feb28
    )
      -> Int64
    {
      UpcomingOwnerState.digest(reminders: rows, windowDays: days, feb29: feb29)
    }
    #expect(digest(Self.reminders.reversed()) == Self.digest)
    var moved = Self.reminders
    moved[0].dueOn = "2026-11-24"
    var recontacted = Self.reminders
    recontacted[0].contactID = 71
    var dated = Self.reminders
    dated[1].dueOn = ""
    let variants = [
      digest(moved), digest(recontacted), digest(dated), digest(Array(Self.reminders.dropLast())),
      digest(Self.reminders + [(10, 70, "2026-11-23")]), digest(Self.reminders, days: 8),
      digest(Self.reminders, feb29: .mar1),
    ]
    for (index, variant) in variants.enumerated() {
      #expect(variant != Self.digest, "variant \(index)")
    }
    #expect(Set(variants).count == variants.count)
  }
}
