import RinDomain

/// Birthdays as address books hold them: with and without a year, Feb 29, malformed values,
/// and a steady share falling in the coming week and around New Year, so the upcoming-
/// birthdays window always has work (and the year wrap is exercised) whatever `now` is.
enum BirthdayFactory {
  static let invalid = [
    "1990-02-30", "13/05/1990", "--13-01", "1985-13-01", "--02-30", "yesterday",
    "", "1990-2-3", "0000-00-00", "2001-02-29",
  ]

  static func make(_ ctx: SeedContext, _ rng: inout SeedRandom) -> String? {
    let roll = rng.below(1_000)
    switch roll {
    case ..<420:
      return nil
    case ..<749:
      return full(randomDay(&rng, year: rng.int(1940...2012)))
    case ..<869:
      return yearless(randomDay(&rng, year: 2001))
    case ..<949:
      // Within the coming 8 days of `now` (UTC), so some land inside every user's window.
      let date = ctx.today.adding(days: rng.int(-1...8))
      return rng.chance(0.7)
        ? withYear(date, &rng)
        : yearless(date)
    case ..<979:
      let date = CalendarDate(year: 2000, month: 12, clampingDay: 28).adding(days: rng.int(0...7))
      return rng.chance(0.6)
        ? withYear(date, &rng)
        : yearless(date)
    case ..<985:
      return rng.chance(0.5) ? "\(rng.pick([1960, 1972, 1988, 1996, 2000, 2004]))-02-29" : "--02-29"
    default:
      return rng.pick(invalid)
    }
  }

  private static func randomDay(_ rng: inout SeedRandom, year: Int) -> CalendarDate {
    let month = rng.int(1...12)
    let day = rng.int(1...CalendarDate.daysIn(month: month, year: year))
    return CalendarDate(year: year, month: month, clampingDay: day)
  }

  /// The same month and day in a birth year; Feb 29 keeps a leap year so the date stays valid.
  private static func withYear(_ date: CalendarDate, _ rng: inout SeedRandom) -> String {
    let year = date.month == 2 && date.day == 29 ? 4 * rng.int(488...502) : rng.int(1950...2010)
    return full(CalendarDate(year: year, month: date.month, clampingDay: date.day))
  }

  private static func full(_ date: CalendarDate) -> String { date.description }
  private static func yearless(_ date: CalendarDate) -> String { "--\(date.monthDay)" }
}
