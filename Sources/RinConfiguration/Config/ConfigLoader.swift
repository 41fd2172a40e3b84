import Foundation
import RinDomain
import Yams

/// Reads `pipelines.yaml`. The YAML is walked node by node (not decoded with Codable) so
/// that every error can name the exact line and column at fault.
public enum ConfigLoader {
  static let topLevelKeys = ["storage", "jobs", "pipelines", "metrics", FreshnessSettings.key]

  /// `jobs` lists the jobs whose sections `jobs:` may hold, each with its settings type.
  public static func load(path: String, jobs: JobSettingsCatalog) throws(ConfigError) -> RinConfig {
    try parse(yaml: try readFile(path), file: path, jobs: jobs)
  }

  /// `file` is only used in messages and as `sourcePath`.
  /// A pipelines.yaml is a few kilobytes; a bigger file is a mistake (or an attack), and
  /// composing its nodes takes ten times its size in memory before any error.
  public static let maximumBytes = 1 << 20

  public static func parse(yaml: String, file: String, jobs: JobSettingsCatalog) throws(ConfigError)
    -> RinConfig
  {
    guard yaml.utf8.count <= maximumBytes else { throw tooBig(file, bytes: yaml.utf8.count) }
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch {
      throw YAMLErrorTranslator.translate(error, yaml: yaml, file: file)
    }
    let config = try ConfigMapping(root, path: "", file: file, fallbackMark: nil)
    try config.rejectUnknownKeys(allowed: topLevelKeys)
    return RinConfig(
      storage: try StorageSettings(reading: config.section("storage", allowing: StorageSettings.keys)),
      jobs: try JobsSettings(reading: config.section("jobs", allowing: nil), catalog: jobs),
      pipelines: try readPipelines(config),
      metrics: try MetricsSettings(reading: config.section("metrics", allowing: MetricsSettings.keys)),
      freshness: try FreshnessSettings(
        reading: config.section(FreshnessSettings.key, allowing: FreshnessSettings.keys)),
      sourcePath: file)
  }

  private static func readPipelines(_ root: ConfigMapping) throws(ConfigError) -> [PipelineConfig] {
    let pipelines = try root.section("pipelines", allowing: nil)
    var result: [PipelineConfig] = []
    for entry in pipelines.entries {
      let name = try PipelineName.read(entry.key, at: entry.keyNode, in: pipelines)
      let section = try pipelines.section(entry.key, allowing: PipelineConfig.keys)
      result.append(try PipelineConfig(name: name, reading: section))
    }
    return result
  }

  private static func readFile(_ path: String) throws(ConfigError) -> String {
    func fail(_ problem: String) -> ConfigError {
      ConfigError(
        file: path, line: 1, column: 1,
        message: "\(problem); create it, or point --config or RIN_CONFIG at the right file")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw fail("configuration file not found")
    }
    guard !isDirectory.boolValue else { throw fail("this is a directory, not a configuration file") }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
      size > maximumBytes
    {
      throw tooBig(path, bytes: size)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw fail("configuration file cannot be read (check its permissions)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError(file: path, line: 1, column: 1, message: "file is not valid UTF-8; save it as UTF-8")
    }
    return text
  }

  private static func tooBig(_ file: String, bytes: Int) -> ConfigError {
    ConfigError(
      file: file, line: 1, column: 1,
      message:
        "configuration file is \(bytes) bytes, over the limit of \(maximumBytes) (1 MiB); a pipelines.yaml is a few kilobytes: check that --config or RIN_CONFIG names the right file"
    )
  }
}
