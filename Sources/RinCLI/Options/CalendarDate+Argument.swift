import ArgumentParser
import Foundation
import RinDomain

/// `--as-of`, `backfill --from` and `--to`: exactly `YYYY-MM-DD`.
extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }

  /// As `init?(argument:)`, with the reason ArgumentParser prints after the option's name;
  /// options read through it (`transform:`).
  static func parse(argument: String) throws -> CalendarDate {
    if let date = CalendarDate(argument) { return date }
    throw ValidationError(Self.problem(argument))
  }

  /// Why `text` is not a date: its form, or, in the right form, the day it names.
  static func problem(_ text: String) -> String {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.map(\.count) == [4, 2, 2],
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    else { return "'\(text)' is not a date: expected YYYY-MM-DD, e.g. 2026-11-01" }
    guard (1...12).contains(month) else {
      return "'\(text)' has no month \(parts[1]): months are 01 to 12"
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard (1...days).contains(day) else {
      return "'\(text)' is not a day of the calendar: \(parts[0])-\(parts[1]) has days 01 to \(days)"
    }
    return "'\(text)' is not a date: expected YYYY-MM-DD, e.g. 2026-11-01"
  }

  /// Why `date` (of `option`) is refused as a day in the future, or nil. Today is the day of
  /// the command's clock: `--now` when it was given (a replayed night may compute for its own
  /// day), else the real clock.
  static func futureProblem(_ date: CalendarDate, option: String, now: UTCInstant?) -> String? {
    let today = CalendarDate(utcInstant: now ?? .now)
    guard date > today else { return nil }
    let clock = now == nil ? "UTC" : "UTC, by --now"
    return
      "\(option) \(date) is after today (\(today), \(clock)): a run would write results and queue notifications for a day that has not come. Pass --allow-future if that is what you mean."
  }
}
