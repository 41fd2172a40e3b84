import ArgumentParser
import RinRuntime

/// `--shard K/N` or `--shard auto/N`.
extension ShardSpec: ExpressibleByArgument {
  public init?(argument: String) { try? self.init(parsing: argument) }

  /// As `init?(argument:)`, with the reason ArgumentParser prints after the option's name;
  /// options read through it (`transform:`).
  static func parse(argument: String) throws -> ShardSpec { try ShardSpec(parsing: argument) }
}
