import RinDomain
import RinTestSupport
import Testing

@Suite(.onItsOwnThread) struct HistoryWindowsTests {
  static func instant(_ text: String) -> UTCInstant { UTCInstant(text)! }
  static let month: Duration = .seconds(30 * 86_400)

  /// The ledger's times are the wall clock's: a run dated a year ahead counts from the wall clock.
  @Test func theLedgerCountsFromTheEarlierOfTheRunsDayAndTheWallClock() {
    let wall = Self.instant("2026-12-02T03:00:00Z")
    let ahead = Self.instant("2027-12-02T03:00:00Z")
    let behind = Self.instant("2026-11-01T03:00:00Z")
    #expect(
      HistoryWindows.ledgerCutoff(now: ahead, wallClock: wall, window: Self.month)
        == Self.instant("2026-11-02T03:00:00Z"))
    #expect(
      HistoryWindows.ledgerCutoff(now: behind, wallClock: wall, window: Self.month)
        == Self.instant("2026-10-02T03:00:00Z"))
    #expect(
      HistoryWindows.ledgerCutoff(now: wall, wallClock: wall, window: Self.month)
        == HistoryWindows.cutoff(now: wall, window: Self.month))
  }

  @Test func theFirstSnapshotDayKeptIsTheCutoffsDay() {
    let now = Self.instant("2026-12-02T02:30:00Z")
    #expect(HistoryWindows.firstSnapshotDayKept(now: now, window: Self.month) == CalendarDate("2026-11-02"))
  }
}
