import RinDomain
import RinTestSupport
import Testing

@Suite(.onItsOwnThread) struct OutboxHorizonTests {
  static func instant(_ text: String) -> UTCInstant { UTCInstant(text)! }

  @Test func theFirstDayIsTheCutoffsDayPlusTheMargin() {
    let horizon = OutboxHorizon(
      now: Self.instant("2026-12-02T03:00:00Z"), outboxWindow: .seconds(30 * 86_400))
    // 2026-12-02T03:00 − 30 days = 2026-11-02T03:00; two days on.
    #expect(horizon.firstDay == CalendarDate("2026-11-04"))
    #expect(horizon.admits(CalendarDate("2026-11-04")!))
    #expect(!horizon.admits(CalendarDate("2026-11-03")!))
    #expect(horizon.admits(CalendarDate("2026-12-02")!))
  }

  /// The cutoff just before midnight still lands on its own day: the margin counts from it.
  @Test func aCutoffLateInTheDay() {
    let horizon = OutboxHorizon(now: Self.instant("2026-12-09T23:59:59Z"), outboxWindow: .seconds(9 * 86_400))
    #expect(horizon.firstDay == CalendarDate("2026-12-02"))
  }
}
