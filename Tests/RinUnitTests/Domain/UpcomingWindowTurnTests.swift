import RinDomain
import RinJobs
import RinTestSupport
import Testing

/// A date turn taken from the stored rows (`UpcomingWindowTurn`) gives exactly the occurrences a
/// full window does: checked for every month-day a birthday can name, around year ends and
/// Feb 29 in common and leap years, with both Feb 29 rules, several widths and shifts.
@Suite("Upcoming window turn", .onItsOwnThread)
struct UpcomingWindowTurnTests {
  /// Every month-day a birthday can name, year-less, and dated ones whose year matters (Feb 29
  /// of a leap year) or does not (any other day).
  static let texts: [String] = {
    var texts: [String] = []
    for month in 1...12 {
      for day in 1...CalendarDate.daysIn(month: month, year: 2000) {
        texts.append("--\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)")
      }
    }
    return texts + ["2000-02-29", "1996-02-29", "1990-02-28", "1985-03-01", "1970-12-31", "2001-01-01"]
  }()

  static func occurrences(_ window: UpcomingWindow) -> Set<UpcomingEvent> {
    var events = Set<UpcomingEvent>()
    for (index, text) in texts.enumerated() {
      if case .upcoming(let event) = window.birthday(contactID: ContactID(rawValue: Int64(index)), text: text)
      {
        events.insert(event)
      }
    }
    return events
  }

  /// The rows after a turn: the stored ones not passed, shifted, and the looked-up ones new.
  static func turned(_ turn: UpcomingWindowTurn, stored: Set<UpcomingEvent>) -> Set<UpcomingEvent> {
    var events = Set<UpcomingEvent>()
    for var event in stored where event.occursOn >= turn.new.today {
      event.daysUntil -= turn.shift
      events.insert(event)
    }
    let monthDays = Set(turn.monthDays)
    for (index, text) in texts.enumerated() where monthDays.contains(String(text.suffix(5))) {
      if case .upcoming(let event) = turn.new.birthday(
        contactID: ContactID(rawValue: Int64(index)), text: text), turn.isNew(event)
      {
        events.insert(event)
      }
    }
    return events
  }

  static let periods: [(String, Int)] = [("2026-12-20", 20), ("2027-02-18", 20), ("2028-02-18", 20)]

  @Test(arguments: Feb29Rule.allCases) func aTurnEqualsTheFullWindow(rule: Feb29Rule) throws {
    for (start, count) in Self.periods {
      let first = try #require(CalendarDate(start))
      for offset in 0..<count {
        let oldToday = first.adding(days: offset)
        for width in [0, 1, 7, 30] {
          let stored = Self.occurrences(UpcomingWindow(today: oldToday, days: width, feb29: rule))
          for shift in [1, 2, 9] {
            let turn = try #require(
              UpcomingWindowTurn(from: oldToday, to: oldToday.adding(days: shift), days: width, feb29: rule))
            let want = Self.occurrences(turn.new)
            let got = Self.turned(turn, stored: stored)
            #expect(
              got == want, "\(rule) \(oldToday) +\(shift), \(width) days: \(got.symmetricDifference(want))")
          }
        }
      }
    }
  }

  @Test func newDaysAreTheOnesTheOldWindowDidNotReach() throws {
    let today = try #require(CalendarDate("2027-02-20"))
    let oneDay = try #require(
      UpcomingWindowTurn(from: today, to: today.adding(days: 1), days: 7, feb29: .feb28))
    #expect(oneDay.shift == 1)
    #expect(oneDay.firstNewDay.description == "2027-02-28")
    #expect(oneDay.monthDays == ["02-28", "02-29"], "a common year's Feb 28 takes Feb 29 birthdays")
    let next = try #require(
      UpcomingWindowTurn(from: today.adding(days: 1), to: today.adding(days: 2), days: 7, feb29: .mar1))
    #expect(next.monthDays == ["03-01", "02-29"], "Mar 1 takes them by the other rule")
    // A jump past the whole old window: every day of the new one is new.
    let far = try #require(
      UpcomingWindowTurn(from: today, to: today.adding(days: 30), days: 2, feb29: .feb28))
    #expect(far.firstNewDay == far.new.today)
    #expect(far.monthDays == ["03-22", "03-23", "03-24"])
  }

  @Test func aTurnNeedsTheDateToMoveForwardLessThanAYear() throws {
    let today = try #require(CalendarDate("2027-06-01"))
    #expect(UpcomingWindowTurn(from: today, to: today, days: 7, feb29: .feb28) == nil)
    #expect(UpcomingWindowTurn(from: today, to: today.adding(days: -1), days: 7, feb29: .feb28) == nil)
    #expect(UpcomingWindowTurn(from: today, to: today.adding(days: 358), days: 7, feb29: .feb28) == nil)
    #expect(UpcomingWindowTurn(from: today, to: today.adding(days: 357), days: 7, feb29: .feb28) != nil)
    #expect(UpcomingWindowTurn(from: today, to: today.adding(days: 1), days: 364, feb29: .feb28) == nil)
    #expect(UpcomingWindowTurn(from: today, to: today.adding(days: 1), days: 363, feb29: .feb28) != nil)
  }
}
