import RinDomain

/// A slot is named by its UTC instant in ISO 8601 (`2026-11-22T02:30:00Z`): fixed width, so the
/// ledger's text column sorts and range-filters in time order.
public enum SlotInstant {
  public static func format(_ instant: Int64) -> String {
    let date = CalendarDate(utcInstant: instant)
    let second = Int(instant - date.startOfDayUTC)
    let pad = LocalDateTime.pad
    return "\(date)T\(pad(second / 3_600)):\(pad(second % 3_600 / 60)):\(pad(second % 60))Z"
  }

  /// The instant of a slot written by `format`; nil for anything else.
  public static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: "T")
    guard text.utf8.count == 20, text.hasSuffix("Z"), parts.count == 2,
      let date = CalendarDate(String(parts[0]))
    else { return nil }
    let clock = parts[1].dropLast().split(separator: ":")
    guard clock.count == 3, let h = Int(clock[0]), let m = Int(clock[1]), let s = Int(clock[2]),
      (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s)
    else { return nil }
    return date.startOfDayUTC + Int64(h * 3_600 + m * 60 + s)
  }
}
