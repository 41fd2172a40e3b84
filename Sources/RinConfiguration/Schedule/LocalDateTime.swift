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
    let shifted = instant + .seconds(offsetSeconds)
    let date = CalendarDate(utcInstant: shifted)
    let secondOfDay = Int(date.startOfDay.distance(to: shifted))
    self.init(date: date, hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60)
  }

  /// This wall time read as if it were UTC: the instant it names, minus the zone's offset.
  var asIfUTC: UTCInstant {
    date.startOfDay + .seconds(hour * 3_600 + minute * 60)
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
