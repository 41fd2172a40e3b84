import RinDomain
import Yams

extension PipelineName {
  /// A key under `pipelines:`, checked once, where the file is read.
  static func read(_ text: String, at node: Node, in config: ConfigMapping) throws(ConfigError)
    -> PipelineName
  {
    guard let name = PipelineName(rawValue: text) else {
      throw config.error(
        at: node,
        "pipeline name '\(text)' must start with a letter or digit and use only letters, digits, '-', '_' and '.'"
      )
    }
    return name
  }
}
