import ArgumentParser
import RinDomain

/// `--now` and `plan --from`: ISO 8601 with a zone, or a date for 00:00 UTC.
extension UTCInstant: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }

  /// As `init?(argument:)`, with the reason ArgumentParser prints after the option's name;
  /// options read through it (`transform:`).
  public static func parse(argument: String) throws -> UTCInstant {
    guard let instant = UTCInstant(argument) else {
      throw ValidationError(
        "expected ISO 8601 with a zone (e.g. 2026-11-22T02:30:00Z) or a date as YYYY-MM-DD")
    }
    return instant
  }
}
