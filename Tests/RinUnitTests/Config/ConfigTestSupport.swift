import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

/// The repository's `pipelines.yaml` shape (docs/CONTRACT.md §4), line numbers matter to the tests.
let examplePipelinesYAML = """
  storage:
    url: var/rin.sqlite
  jobs:
    daily-score: {}
    circle-patterns: {}
    enrichment-fetch:
      provider:
        name: acme-people
        url: https://enrich.example.com
        api_key_env: RIN_ENRICH_API_KEY
        batch_size: 80
        requests_per_minute: 600
    upcoming-birthdays: {}
    attribution-expiry:
      window: 7d
    badge-recount: {}
  pipelines:
    nightly:
      schedule: "30 2 * * *"
      timezone: UTC
      jobs: [enrichment-fetch, circle-patterns, daily-score, badge-recount]

  """

/// A fresh directory per test, removed afterwards, so tests read real files.
func withConfigTestDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("rin-config-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// The error parsing `yaml` produces; records a test failure (and throws) if it parses.
func configError(
  _ yaml: String, file: String = "pipelines.yaml", sourceLocation: SourceLocation = #_sourceLocation
) throws -> ConfigError {
  var found: ConfigError?
  do {
    _ = try ConfigLoader.parse(yaml: yaml, file: file, jobs: JobCatalog.settings)
  } catch {
    found = error
  }
  return try #require(found, "expected a ConfigError, but the YAML parsed", sourceLocation: sourceLocation)
}

/// The error loading the file at `path` produces, or nil if it loads.
func configLoadError(path: String) -> ConfigError? {
  do {
    _ = try ConfigLoader.load(path: path, jobs: JobCatalog.settings)
    return nil
  } catch {
    return error
  }
}

/// The example with `line` (1-based) replaced, to plant one mistake in a known place.
func exampleConfig(replacingLine line: Int, with text: String) -> String {
  var lines = examplePipelinesYAML.components(separatedBy: "\n")
  lines[line - 1] = text
  return lines.joined(separator: "\n")
}
