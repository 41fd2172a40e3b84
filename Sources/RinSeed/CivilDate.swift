/// Proleptic Gregorian calendar arithmetic on plain integers (Howard Hinnant's algorithms),
/// so dates never depend on Foundation's calendar, locale or the machine's time zone.
struct CivilDate: Equatable, Sendable {
  var year: Int
  var month: Int
  var day: Int

  static let secondsPerDay: Int64 = 86_400

  /// The UTC date of a Unix instant.
  init(unixSeconds: Int64) {
    let days = Int(unixSeconds >= 0 ? unixSeconds / Self.secondsPerDay
      : (unixSeconds - Self.secondsPerDay + 1) / Self.secondsPerDay)
    self.init(daysSinceEpoch: days)
  }

  init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  init(daysSinceEpoch: Int) {
    let z = daysSinceEpoch + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    day = doy - (153 * mp + 2) / 5 + 1
    month = mp < 10 ? mp + 3 : mp - 9
    year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  }

  var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  func adding(days: Int) -> CivilDate {
    CivilDate(daysSinceEpoch: daysSinceEpoch + days)
  }

  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `YYYY-MM-DD`.
  var iso: String { "\(Self.pad(year, 4))-\(monthDay)" }

  /// `MM-DD`, the part a year-less `--MM-DD` birthday keeps.
  var monthDay: String { "\(Self.pad(month, 2))-\(Self.pad(day, 2))" }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}
