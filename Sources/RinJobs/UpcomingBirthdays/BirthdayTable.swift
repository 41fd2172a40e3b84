import RinDomain

/// One window's answer for every month and day a birthday can name, worked out once, so that a
/// contact's birthday costs a parse of its bytes and a table lookup. upcoming-birthdays reads every
/// live contact's birthday every hour, and the date arithmetic of
/// `UpcomingWindow.birthday(contactID:text:)` per contact was most of its time (BENCHMARKS.md).
/// Its answers equal that function's on every input (BirthdayTableTests checks each month-day,
/// years, windows across a year's end and Feb 29, and malformed texts).
public struct BirthdayTable: Sendable {
  public let window: UpcomingWindow
  /// Days from `window.today` to the occurrence of `--MM-DD`, at `month * 32 + day`;
  /// `outside` when it falls after the window, `invalid` for a month-day no year has.
  private let daysUntil: [Int32]
  private static let outside: Int32 = -1
  private static let invalid: Int32 = -2

  public init(_ window: UpcomingWindow) {
    self.window = window
    var table = [Int32](repeating: Self.invalid, count: 13 * 32)
    for month in 1...12 {
      for day in 1...CalendarDate.daysIn(month: month, year: 2000) {
        // The occurrence of a birthday ignores its year, so the year-less text answers for all.
        let text = "--\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        switch window.birthday(contactID: 0, text: text) {
        case .upcoming(let event): table[month * 32 + day] = Int32(event.daysUntil)
        default: table[month * 32 + day] = Self.outside
        }
      }
    }
    daysUntil = table
  }

  /// `window.birthday(contactID:text:)` of the text these bytes spell.
  public func birthday(contactID: ContactID, utf8: UnsafeBufferPointer<UInt8>) -> UpcomingWindow.Outcome {
    let month: Int
    let day: Int
    var year: Int?
    if let (m, d) = DateText.monthDay(utf8: utf8) {
      (month, day) = (m, d)
    } else if let (y, m, d) = DateText.yearMonthDay(utf8: utf8) {
      (year, month, day) = (y, m, d)
    } else {
      return .malformed
    }
    guard (1...12).contains(month), (1...31).contains(day) else { return .malformed }
    let days = daysUntil[month * 32 + day]
    guard days != Self.invalid else { return .malformed }
    // Feb 29 with a year is a real date only in a leap year (`Birthday.init`).
    if month == 2, day == 29, let year, !CalendarDate.isLeap(year) { return .malformed }
    guard days != Self.outside else { return .notUpcoming }
    return .upcoming(
      UpcomingEvent(
        kind: .birthday, refID: contactID.rawValue, occursOn: window.today.adding(days: Int(days)),
        contactID: contactID, daysUntil: Int(days)))
  }
}
