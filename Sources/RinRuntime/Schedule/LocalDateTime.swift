import RinDomain

/// A wall-clock minute with no time zone: what a cron schedule names and what a clock in the
/// pipeline's zone shows.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let date: CalendarDate
  public let hour: Int
  public let minute: Int

  public init(date: CalendarDate, hour: Int, minute: Int) {
    self.date = date
    self.hour = hour
    self.minute = minute
  }

  /// The wall-clock time that `instant` shows at `offsetSeconds` from UTC.
  public init(instant: UTCInstant, offsetSeconds: Int) {
    let shifted = instant.seconds + Int64(offsetSeconds)
    let date = CalendarDate(utcInstant: shifted)
    let secondOfDay = Int(shifted - date.startOfDayUTC)
    self.init(date: date, hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60)
  }

  /// Seconds since 1970-01-01 00:00 as if this wall time were UTC: the instant minus the offset.
  var secondsAsIfUTC: Int64 {
    date.startOfDayUTC + Int64(hour * 3_600 + minute * 60)
  }

  /// `HH:MM`.
  public var clock: String { "\(Self.pad(hour)):\(Self.pad(minute))" }

  /// `YYYY-MM-DD HH:MM`.
  public var description: String { "\(date) \(clock)" }

  public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
    (a.date, a.hour, a.minute) < (b.date, b.hour, b.minute)
  }

  static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
