/// Reads the data contract's date texts (`YYYY-MM-DD`, `--MM-DD`) straight from their UTF-8
/// bytes. Jobs parse one per contact row; splitting strings was upcoming-birthdays' hot spot
/// (BENCHMARKS.md). Only ASCII digits count as digits: no sign, no space, no other script.
@usableFromInline package enum DateText {
  /// Year, month and day of exactly `YYYY-MM-DD`, not yet checked as a calendar date.
  static func yearMonthDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
    withBytes(text, yearMonthDay(utf8:))
  }

  /// Month and day of exactly `--MM-DD`, not yet checked as a calendar date.
  static func monthDay(_ text: String) -> (month: Int, day: Int)? {
    withBytes(text, monthDay(utf8:))
  }

  /// Date and time of day of the `YYYY-MM-DDTHH:MM:SS` that begins an ISO 8601 date-time
  /// (the zone follows), not yet checked as either; the separators after the date are left to
  /// the parser of the whole text.
  static func dateAndTimeOfDay(
    _ text: String
  ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
    withBytes(text) { b in
      guard b.count >= 20, let (y, m, d) = yearMonthDay(utf8: UnsafeBufferPointer(rebasing: b[0..<10])),
        let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2)
      else { return nil }
      return (y, m, d, hour, minute, second)
    }
  }

  // Inlinable, as the parsers below: the jobs parse one per contact row, in another module.
  @inlinable package static func yearMonthDay(utf8 b: UnsafeBufferPointer<UInt8>) -> (
    year: Int, month: Int, day: Int
  )? {
    guard b.count == 10, b[4] == dash, b[7] == dash, let y = number(b, 0, 4), let m = number(b, 5, 2),
      let d = number(b, 8, 2)
    else { return nil }
    return (y, m, d)
  }

  @inlinable package static func monthDay(utf8 b: UnsafeBufferPointer<UInt8>) -> (month: Int, day: Int)? {
    guard b.count == 7, b[0] == dash, b[1] == dash, b[4] == dash, let m = number(b, 2, 2),
      let d = number(b, 5, 2)
    else { return nil }
    return (m, d)
  }

  @usableFromInline static var dash: UInt8 { UInt8(ascii: "-") }

  @inlinable static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> Int? {
    var value = 0
    for byte in bytes[offset..<offset + count] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  private static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R?) -> R? {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
  }
}
