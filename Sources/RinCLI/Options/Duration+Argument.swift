import ArgumentParser
import RinConfiguration
import RinRuntime

/// `--max-age`, `--grace`, `--look-back`, `--since`: the short form of `pipelines.yaml` (`7d`,
/// `1h30m`), read by the same parser.
extension Duration: @retroactive ExpressibleByArgument {
  public init?(argument: String) { self.init(configString: argument) }

  public var defaultValueDescription: String { DurationFormat.format(self) }

  /// As `init?(argument:)`, with the reason ArgumentParser prints after the option's name;
  /// options read through it (`transform:`).
  static func parse(argument: String) throws -> Duration { try DurationFormat.parse(argument) }
}
