import Yams

/// Pipeline names appear unquoted in the generated crontab and on command lines
/// (`rinjobs pipeline run NAME`), so they are limited to characters that need no quoting.
enum PipelineName {
  static func validate(_ name: String, at node: Node, in config: ConfigMapping) throws(ConfigError) {
    let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    guard allowed, let first = name.first, first.isASCII, first.isLetter || first.isNumber else {
      throw config.error(
        at: node,
        "pipeline name '\(name)' must start with a letter or digit and use only letters, digits, '-', '_' and '.'"
      )
    }
  }
}
