/// A contact's birthday as the data contract stores it: `YYYY-MM-DD`, or `--MM-DD` when the
/// year is unknown (docs/CONTRACT.md §2, §3.4).
public struct Birthday: Sendable, Hashable {
  public let month: Int
  public let day: Int
  /// nil for a `--MM-DD` birthday. Used only to validate the date: the occurrence ignores it.
  public let year: Int?

  /// Parses exactly `YYYY-MM-DD` (a real date, so Feb 29 only in a leap year) or `--MM-DD` (any
  /// day the month can have, Feb 29 included). Anything else, spaces included, is nil: the
  /// caller counts it as malformed.
  public init?(_ text: String) {
    if let (m, d) = DateText.monthDay(text) {
      // A leap year accepts every month-day a birthday without a year can name.
      guard CalendarDate(year: 2000, month: m, day: d) != nil else { return nil }
      year = nil
      month = m
      day = d
    } else {
      guard let date = CalendarDate(text) else { return nil }
      year = date.year
      month = date.month
      day = date.day
    }
  }

  /// This birthday in `year`: Feb 29 falls on Feb 28, or Mar 1, in a common year.
  public func occurrence(in year: Int, feb29: Feb29Rule = .feb28) -> CalendarDate {
    if month == 2, day == 29, !CalendarDate.isLeap(year), feb29 == .mar1 {
      return CalendarDate(year: year, month: 3, clampingDay: 1)
    }
    return CalendarDate(year: year, month: month, clampingDay: day)
  }

  /// The first occurrence on or after `today` (today itself when it is the day).
  public func nextOccurrence(onOrAfter today: CalendarDate, feb29: Feb29Rule = .feb28) -> CalendarDate {
    let thisYear = occurrence(in: today.year, feb29: feb29)
    return thisYear >= today ? thisYear : occurrence(in: today.year + 1, feb29: feb29)
  }
}
