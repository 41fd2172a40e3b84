import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("A window's birthday table", .onItsOwnThread)
struct BirthdayTableTests {
  /// Texts a birthday column holds, well formed or not: every `--MM-DD` and `YYYY-MM-DD` with
  /// month 0...13 and day 0...32 over years that are and are not leap, and shapes that are almost
  /// right.
  static let texts: [String] = {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var texts: [String] = []
    for month in 0...13 {
      for day in 0...32 {
        texts.append("--\(two(month))-\(two(day))")
        for year in ["0000", "1900", "1999", "2000", "2023", "2024", "9999"] {
          texts.append("\(year)-\(two(month))-\(two(day))")
        }
      }
    }
    return texts + [
      "", "-", "--", "--1-01", "--01-1", "---01-01", "--01-01 ", " --01-01", "--01/01", "2000-1-01",
      "2000-01-1", "200-01-01", "20000-01-01", "-2000-01-01", "2000-01-01 ", " 2000-01-01", "2000/01/01",
      "2000-01-01T00:00", "+2000-01-01", "２０００-01-01", "--０1-01", "2000-0a-01", "2000-01-0\u{661}",
      "--02-29\u{0}", "2000-02-29x", "--12-31", "1990-12-31", "--01-01", "1990-01-01",
    ]
  }()

  /// Windows whose days cross a year's end, a Feb 29 in leap and common years, none, and more
  /// than a year.
  static let windows: [UpcomingWindow] = {
    var windows: [UpcomingWindow] = []
    for today in [
      "2026-11-22", "2026-12-25", "2026-12-31", "2027-01-01", "2027-02-27", "2028-02-27",
      "2028-02-29", "2028-03-01", "2027-03-01", "2026-02-28",
    ] {
      for days in [0, 1, 7, 30, 400] {
        for rule in [Feb29Rule.feb28, .mar1] {
          windows.append(UpcomingWindow(today: CalendarDate(today)!, days: days, feb29: rule))
        }
      }
    }
    return windows
  }()

  @Test func answersAsTheWindowDoesForEveryText() {
    var mismatches: [String] = []
    var upcoming = 0
    for window in Self.windows {
      let table = BirthdayTable(window)
      for text in Self.texts {
        var bytes = text
        let fast = bytes.withUTF8 { table.birthday(contactID: 7, utf8: $0) }
        let reference = window.birthday(contactID: 7, text: text)
        if fast != reference { mismatches.append("\(window.today)+\(window.days) \(window.feb29) \(text)") }
        if case .upcoming = reference { upcoming += 1 }
      }
    }
    #expect(mismatches.count == 0, "first: \(mismatches.prefix(5))")
    // The comparison covers every outcome, not only the common ones.
    #expect(upcoming > 1000)
  }

  @Test func aFeb29BirthdayFollowsTheRuleInACommonYear() throws {
    let today = try #require(CalendarDate("2027-02-27"))
    for (rule, expected) in [(Feb29Rule.feb28, "2027-02-28"), (.mar1, "2027-03-01")] {
      let table = BirthdayTable(UpcomingWindow(today: today, days: 7, feb29: rule))
      var text = "2000-02-29"
      guard case .upcoming(let event) = text.withUTF8({ table.birthday(contactID: 1, utf8: $0) }) else {
        Issue.record("\(rule): not upcoming")
        continue
      }
      #expect(event.occursOn.description == expected)
      var common = "2001-02-29"
      #expect(common.withUTF8 { table.birthday(contactID: 1, utf8: $0) } == .malformed)
    }
  }
}
