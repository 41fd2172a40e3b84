import ArgumentParser
import RinDomain

/// `--as-of`, `backfill --from` and `--to`: exactly `YYYY-MM-DD`.
extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }

  /// As `init?(argument:)`, with the reason ArgumentParser prints after the option's name;
  /// options read through it (`transform:`).
  static func parse(argument: String) throws -> CalendarDate {
    guard let date = CalendarDate(argument) else {
      throw ValidationError("expected a date as YYYY-MM-DD, e.g. 2026-11-01")
    }
    return date
  }
}
