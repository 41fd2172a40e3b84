import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Birthdays", .onItsOwnThread)
struct BirthdayTests {
  func date(_ text: String) throws -> CalendarDate { try #require(CalendarDate(text)) }

  func next(_ birthday: String, from today: String) throws -> String {
    try #require(Birthday(birthday)).nextOccurrence(onOrAfter: date(today)).description
  }

  @Test func parsesBothFormsOfTheDataContract() throws {
    let full = try #require(Birthday("1990-05-17"))
    #expect((full.year, full.month, full.day) == (1990, 5, 17))
    let yearless = try #require(Birthday("--05-17"))
    #expect((yearless.year, yearless.month, yearless.day) == (nil, 5, 17))
    #expect(Birthday("--02-29") != nil, "a year-less Feb 29 is a real birthday")
    #expect(Birthday("2000-02-29") != nil)
  }

  @Test(arguments: [
    "1990-02-30", "13/05/1990", "--13-01", "1985-13-01", "--02-30", "yesterday", "", "1990-2-3",
    "0000-00-00", "2001-02-29", " 1990-05-17", "1990-05-17 ", "+199-05-17", "--5-17", "---05-17",
    "--05-17 ", "--00-10", "--04-31", "1990/05/17", "--05-1a",
  ])
  func rejectsEverythingElse(_ text: String) {
    #expect(Birthday(text) == nil, "\(text.debugDescription) should be malformed")
  }

  @Test func theNextOccurrenceIsTodayOrLater() throws {
    #expect(try next("--11-22", from: "2026-11-22") == "2026-11-22")
    #expect(try next("1990-11-23", from: "2026-11-22") == "2026-11-23")
    #expect(try next("--11-21", from: "2026-11-22") == "2027-11-21")
  }

  @Test func theNextOccurrenceCrossesTheYearEnd() throws {
    #expect(try next("--01-03", from: "2026-12-28") == "2027-01-03")
    #expect(try next("--12-28", from: "2026-12-28") == "2026-12-28")
    #expect(try next("--12-27", from: "2026-12-28") == "2027-12-27")
  }

  @Test func feb29FallsOnFeb28InCommonYears() throws {
    for birthday in ["--02-29", "2000-02-29"] {
      #expect(try next(birthday, from: "2027-02-01") == "2027-02-28")
      #expect(try next(birthday, from: "2027-02-28") == "2027-02-28")
      #expect(try next(birthday, from: "2027-03-01") == "2028-02-29")
      #expect(try next(birthday, from: "2028-02-01") == "2028-02-29")
      #expect(try next(birthday, from: "2028-02-29") == "2028-02-29")
      #expect(try next(birthday, from: "2028-03-01") == "2029-02-28")
      #expect(try next(birthday, from: "2099-12-31") == "2100-02-28", "2100 is not a leap year")
    }
    #expect(try next("--02-28", from: "2028-02-01") == "2028-02-28", "Feb 28 stays Feb 28 in a leap year")
  }

  @Test func feb29FallsOnMar1InCommonYearsWhenSoConfigured() throws {
    func next(_ birthday: String, from today: String) throws -> String {
      try #require(Birthday(birthday)).nextOccurrence(onOrAfter: date(today), feb29: .mar1).description
    }
    for birthday in ["--02-29", "2000-02-29"] {
      #expect(try next(birthday, from: "2027-02-28") == "2027-03-01", "not yet on Feb 28")
      #expect(try next(birthday, from: "2027-03-01") == "2027-03-01")
      #expect(try next(birthday, from: "2027-03-02") == "2028-02-29", "a leap year keeps Feb 29")
      #expect(try next(birthday, from: "2099-12-31") == "2100-03-01", "2100 is not a leap year")
    }
    #expect(try next("--02-28", from: "2027-02-28") == "2027-02-28", "Feb 28 birthdays do not move")
    #expect(try next("--03-01", from: "2027-02-28") == "2027-03-01")
    // The window on Feb 28 of a common year: with mar1 a Feb 29 birthday is tomorrow, not today.
    let window = UpcomingWindow(today: try date("2027-02-28"), days: 0, feb29: .mar1)
    #expect(window.birthday(contactID: 1, text: "--02-29") == .notUpcoming)
    let wider = UpcomingWindow(today: try date("2027-02-28"), days: 1, feb29: .mar1)
    guard case .upcoming(let event) = wider.birthday(contactID: 1, text: "--02-29") else {
      Issue.record("a Feb 29 birthday is upcoming on Mar 1")
      return
    }
    #expect(event.occursOn.description == "2027-03-01" && event.daysUntil == 1)
  }
}
