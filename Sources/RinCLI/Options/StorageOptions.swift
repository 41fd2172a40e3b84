import ArgumentParser
import Foundation
import RinConfiguration
import RinJobs
import RinRuntime
import RinStorage

/// `--config` and `--db`: where the settings and the database are. Shared by every command.
public struct StorageOptions: ParsableArguments {
  @Option(name: .long, help: "Path of pipelines.yaml (default: $RIN_CONFIG, else ./pipelines.yaml).")
  var config: String?

  @Option(
    name: .long,
    help:
      "Database: a SQLite file path or a postgres:// URL (overrides $RIN_DATABASE_URL_FILE, $RIN_DATABASE_URL and storage.url); a password here is visible to other users in ps."
  )
  var db: String?

  public init() {}

  /// The config file: `--config`, else `$RIN_CONFIG`, else `./pipelines.yaml`. With `--db` and no
  /// file at the default place, built-in defaults apply (one-off runs against a copy).
  public func loadConfig() throws -> RinConfig { try Self.loadConfig(config: config, db: db) }

  static func loadConfig(config: String?, db: String?) throws -> RinConfig {
    let environment = ProcessInfo.processInfo.environment
    let explicit = config ?? environment["RIN_CONFIG"]
    let path = explicit ?? "pipelines.yaml"
    let given = try DatabaseURLSource.given(db: db, environment: environment)
    var loaded: RinConfig
    if explicit == nil, given != nil, !FileManager.default.fileExists(atPath: path) {
      loaded = RinConfig.defaults(jobs: JobCatalog.settings)
      loaded.sourcePath = RinConfig.defaultsSourcePath
    } else {
      do {
        loaded = try ConfigLoader.load(path: path, jobs: JobCatalog.settings)
      } catch {
        throw CLIFailure(.configuration, error.description)
      }
    }
    if let pushURL = try MetricsPushURLSource.given(environment: environment) {
      loaded.metrics.pushURL = pushURL
    }
    if let given {
      loaded.storage.url = given
    } else if loaded.sourcePath != RinConfig.defaultsSourcePath {
      loaded.storage.url = Self.resolve(loaded.storage.url, besides: loaded.sourcePath)
    }
    return loaded
  }

  /// A relative SQLite path in the file means relative to the file's folder, so cron (whose
  /// working directory is $HOME) finds the same database as an operator in the repository.
  static func resolve(_ url: String, besides configPath: String) -> String {
    guard !url.hasPrefix("/"), !url.contains("://"), !Storage.isPostgres(url: url) else { return url }
    let folder = URL(fileURLWithPath: configPath).deletingLastPathComponent()
    return folder.appendingPathComponent(url).standardizedFileURL.path
  }
}

/// `--config` alone: for the commands that read pipelines.yaml and open no database (`plan`,
/// `validate`, `crontab`), which so take no `--db` they would ignore.
struct ConfigOptions: ParsableArguments {
  @Option(name: .long, help: "Path of pipelines.yaml (default: $RIN_CONFIG, else ./pipelines.yaml).")
  var config: String?

  init() {}

  func loadConfig() throws -> RinConfig { try StorageOptions.loadConfig(config: config, db: nil) }
}
