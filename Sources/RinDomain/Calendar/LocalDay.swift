import Foundation

/// A user's calendar date at an instant, read in their IANA time zone (docs/CONTRACT.md §3.4). A
/// missing or invalid zone falls back to UTC and says so, so the caller can count it.
public struct LocalDay: Sendable, Equatable {
  public enum Zone: Sendable, Equatable {
    case valid
    /// Null or empty: the UTC date was used.
    case missing
    /// Not a zone this system's tz database knows: the UTC date was used.
    case invalid
  }

  public let date: CalendarDate
  public let zone: Zone

  /// The date at `instant` in the zone named `zoneName`. The zone's offset is the
  /// one in force at that instant, so a DST change (even one at midnight that repeats the last
  /// hour of the day before) gives the date a wall clock there shows.
  public init(at instant: UTCInstant, zoneName: String?) {
    guard let name = zoneName, !name.isEmpty else {
      self.init(date: CalendarDate(utcInstant: instant), zone: .missing)
      return
    }
    guard let timeZone = Self.timeZone(named: name) else {
      self.init(date: CalendarDate(utcInstant: instant), zone: .invalid)
      return
    }
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds)))
    self.init(date: CalendarDate(utcInstant: instant.advanced(by: Int64(offset))), zone: .valid)
  }

  private init(date: CalendarDate, zone: Zone) {
    self.date = date
    self.zone = zone
  }

  /// A tz database name. Foundation also reads "GMT+5" and "UTC+3" as fixed offsets, but those
  /// are not IANA names and their sign is ambiguous (POSIX `Etc/GMT+5` is UTC−5), so they count
  /// as invalid.
  static func timeZone(named name: String) -> TimeZone? {
    for prefix in ["GMT", "UTC"] where name.hasPrefix(prefix) && name.count > prefix.count {
      let next = name[name.index(name.startIndex, offsetBy: prefix.count)]
      if next == "+" || next == "-" { return nil }
    }
    return TimeZone(identifier: name)
  }
}
