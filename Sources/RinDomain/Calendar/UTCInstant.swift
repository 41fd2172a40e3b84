import Foundation

/// An instant to the second, as Unix seconds, read and written as ISO 8601: the jobs' clock
/// (`--now`), the logs, the summaries and `history`. Whole seconds, as the data contract stores
/// instants.
public struct UTCInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let seconds: Int64

  public init(seconds: Int64) {
    self.seconds = seconds
  }

  /// Reads ISO 8601 with a zone (`Z` or an offset; a fraction of a second is dropped toward the
  /// past), or a bare `YYYY-MM-DD` taken as 00:00 UTC. Foundation's `ISO8601FormatStyle` reads
  /// the zone without ICU (`ISO8601DateFormatter` loads ICU, milliseconds of every process); it is
  /// lenient about the fields' ranges (an hour of 25, February 30th), so the date and the time
  /// of day are checked here first.
  public init?(_ text: String) {
    if let date = CalendarDate(text) {
      self = date.startOfDay
      return
    }
    guard let (year, month, day, hour, minute, second) = DateText.dateAndTimeOfDay(text),
      CalendarDate(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 60
    else { return nil }
    for style in [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)] {
      if let date = try? style.parse(text) {
        self.init(seconds: Int64(date.timeIntervalSince1970.rounded(.down)))
        return
      }
    }
    return nil
  }

  /// `2026-11-22T02:30:00Z`: fixed width, so the ledger's text columns sort in time order.
  /// Written by hand rather than with Foundation's `ISO8601DateFormatter`, whose first use
  /// loads ICU's calendar and number formats, paid by every shard worker and cron run
  /// (BENCHMARKS.md, session 9).
  public var description: String {
    let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let second = Int(seconds - day * 86_400)
    let date = CalendarDate(daysSinceEpoch: Int(day))
    return "\(date)T\(CalendarDate.pad(second / 3600, 2)):\(CalendarDate.pad(second / 60 % 60, 2)):"
      + "\(CalendarDate.pad(second % 60, 2))Z"
  }

  public static func < (a: UTCInstant, b: UTCInstant) -> Bool { a.seconds < b.seconds }

  /// The host's wall clock, to the second (a fraction dropped).
  public static var now: UTCInstant { WallClock.system.now }
}
