/// A proleptic Gregorian calendar date with no time zone, as `YYYY-MM-DD` in the data contract.
/// Arithmetic counts days, never seconds, so DST and leap seconds cannot shift it.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
  public let year: Int
  public let month: Int
  public let day: Int

  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else {
      return nil
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date, with a day past the month's end moved back to its last day: Feb 29 becomes
  /// Feb 28 in a common year (a birthday's rule, docs/CONTRACT.md §3.4).
  public init(year: Int, month: Int, clampingDay day: Int) {
    let m = min(max(month, 1), 12)
    self.year = year
    self.month = m
    self.day = min(max(day, 1), Self.daysIn(month: m, year: year))
  }

  /// Parses exactly `YYYY-MM-DD` (ASCII digits only: no sign, no space).
  public init?(_ text: String) {
    guard let (y, m, d) = DateText.yearMonthDay(text) else { return nil }
    self.init(year: y, month: m, day: d)
  }

  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 (negative before), by Howard Hinnant's days_from_civil.
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  public init(daysSinceEpoch days: Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    year = yoe + era * 400 + (m <= 2 ? 1 : 0)
    month = m
    day = d
  }

  /// The UTC date of an instant.
  public init(utcInstant instant: UTCInstant) {
    let seconds = instant.seconds
    self.init(daysSinceEpoch: Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400))
  }

  /// 00:00 UTC of this date.
  public var startOfDay: UTCInstant { UTCInstant(seconds: Int64(daysSinceEpoch) * 86_400) }

  public func adding(days: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + days) }

  public func days(until other: CalendarDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

  public var description: String {
    guard (0...9999).contains(year) else { return "\(Self.pad(year, 4))-\(monthDay)" }
    // Ten ASCII bytes fit a small string: no allocation (a key per upcoming event is built
    // from this).
    return String(unsafeUninitializedCapacity: 10) { bytes in
      Self.write(year, into: bytes, at: 0, digits: 4)
      bytes[4] = UInt8(ascii: "-")
      Self.write(month, into: bytes, at: 5, digits: 2)
      bytes[7] = UInt8(ascii: "-")
      Self.write(day, into: bytes, at: 8, digits: 2)
      return 10
    }
  }

  /// `value` (not negative) as exactly `digits` ASCII digits, zero-padded.
  private static func write(
    _ value: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int, digits: Int
  ) {
    var rest = value
    for i in (offset..<offset + digits).reversed() {
      bytes[i] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
  }

  /// `MM-DD`, the part a year-less `--MM-DD` birthday keeps.
  public var monthDay: String { "\(Self.pad(month, 2))-\(Self.pad(day, 2))" }

  static func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
  }

  public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }
}
