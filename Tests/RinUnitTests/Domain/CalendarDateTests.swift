import RinDomain
import RinTestSupport
import Testing

@Suite("Calendar dates", .onItsOwnThread)
struct CalendarDateTests {
  @Test func parsesOnlyValidDates() {
    #expect(CalendarDate("2028-02-29")?.description == "2028-02-29")
    #expect(CalendarDate("2027-02-29") == nil)
    #expect(CalendarDate("1990-02-30") == nil)
    #expect(CalendarDate("2026-13-01") == nil)
    #expect(CalendarDate("2026-1-01") == nil)
    #expect(CalendarDate("--02-29") == nil)
    #expect(CalendarDate("") == nil)
    #expect(CalendarDate("+199-05-01") == nil, "a sign is not a digit")
    #expect(CalendarDate("２０２６-01-01") == nil, "only ASCII digits")
    #expect(CalendarDate("2026-01-0\u{0661}") == nil, "only ASCII digits")
    #expect(CalendarDate("2026-01-01\u{0301}") == nil, "nothing after the day")
    #expect(CalendarDate("2026--1-01") == nil)
    #expect(CalendarDate("2026/01/01") == nil)
    #expect(CalendarDate("0001-01-01")?.year == 1)
  }

  @Test func utcInstantsPrintAsISO8601() {
    #expect(UTCInstant(seconds: 0).description == "1970-01-01T00:00:00Z")
    #expect(UTCInstant(seconds: 1_795_143_600).description == "2026-11-20T03:00:00Z")
    #expect(UTCInstant(seconds: 1_795_229_999).description == "2026-11-21T02:59:59Z")
    #expect(
      UTCInstant(seconds: -1).description == "1969-12-31T23:59:59Z",
      "before the epoch the day still starts at 00:00")
    #expect(UTCInstant(seconds: 951_782_400).description == "2000-02-29T00:00:00Z")
  }

  @Test func utcInstantsParseISO8601WithAZoneOrADate() {
    #expect(UTCInstant("2026-11-22T02:30:00Z")?.seconds == 1_795_314_600)
    #expect(UTCInstant("2026-11-22T02:30:00+01:00")?.seconds == 1_795_311_000)
    #expect(UTCInstant("2026-11-22T23:30:00.5-05:00")?.seconds == 1_795_408_200, "04:30 UTC on the 23rd")
    #expect(UTCInstant("1969-12-31T23:59:59.5Z")?.seconds == -1, "a fraction is dropped toward the past")
    #expect(UTCInstant("2026-11-22")?.seconds == 1_795_305_600, "a bare date is 00:00 UTC")
    #expect(UTCInstant("2028-02-29T00:00:00Z")?.seconds == 1_835_395_200)
    // Foundation's ISO 8601 parser takes an hour of 24 or 25, a 60th second and a February
    // 30th; an instant does not.
    for text in [
      "2026-11-22T24:00:00Z", "2026-11-20T25:00:00Z", "2026-11-22T23:59:60Z", "2026-11-22T03:60:00Z",
      "2027-02-29T00:00:00Z", "2026-02-30T03:00:00Z", "2026-11-22T02:30:00", "2026-11-22T02:30Z",
      "2026-11-22 02:30:00Z", "２０２６-11-22T02:30:00Z", "+2026-11-22T02:30:00Z", "yesterday", "",
    ] {
      #expect(UTCInstant(text) == nil, "\(text)")
    }
    for seconds: Int64 in [-86_401, -1, 0, 951_782_400, 1_795_314_600, 253_402_300_799] {
      #expect(UTCInstant(UTCInstant(seconds: seconds).description)?.seconds == seconds)
    }
  }

  @Test func descriptionsPadToFourAndTwoDigits() {
    #expect(CalendarDate(year: 5, month: 3, clampingDay: 9).description == "0005-03-09")
    #expect(CalendarDate(year: 9999, month: 12, clampingDay: 31).description == "9999-12-31")
    #expect(CalendarDate(year: 12_345, month: 1, clampingDay: 2).description == "12345-01-02")
    #expect(CalendarDate(year: 2026, month: 11, clampingDay: 22).monthDay == "11-22")
  }

  @Test func dayCountsRoundTrip() {
    #expect(CalendarDate("1970-01-01")?.daysSinceEpoch == 0)
    #expect(CalendarDate("2000-03-01")?.daysSinceEpoch == 11_017)
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      #expect(CalendarDate(daysSinceEpoch: days).daysSinceEpoch == days)
    }
  }

  @Test func arithmeticCrossesYearEnds() {
    let date = CalendarDate("2026-12-28")!
    #expect(date.adding(days: 6).description == "2027-01-03")
    #expect(date.days(until: CalendarDate("2027-01-03")!) == 6)
  }

  @Test func utcDateOfAnInstant() {
    #expect(CalendarDate(utcInstant: UTCInstant(seconds: 1_795_348_800)).description == "2026-11-22")
    #expect(CalendarDate(utcInstant: UTCInstant(seconds: 1_795_305_599)).description == "2026-11-21")
    #expect(CalendarDate(utcInstant: UTCInstant(seconds: -1)).description == "1969-12-31")
  }
}
