import Foundation

/// A test's configuration file (`rinjobs.yaml` with its pipelines): the YAML a test needs, said
/// where the test is, written by one function. A test states what it configures; the file's
/// storage block and the pipelines every nightly test runs are written once, here.
package enum TestConfigFile {
  /// docs/CONTRACT.md's nightly pipeline, at 02:30 in the host's zone.
  package static let nightlyPipeline = pipelines(
    "nightly", schedule: "30 2 * * *",
    jobs: ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"])

  /// A `pipelines:` block with one pipeline; `lines` are its further keys (`timezone: UTC`,
  /// `notify: {…}`), one each.
  package static func pipelines(
    _ name: String, schedule: String, jobs: [String], _ lines: String...
  ) -> String {
    let keys =
      ["schedule: \"\(schedule)\"", "jobs: [\(jobs.joined(separator: ", "))]"] + lines
    return "pipelines:\n  \(name):\n" + keys.map { "    \($0)\n" }.joined()
  }

  /// Writes `yaml`, after a `storage:` block naming `storageURL` when given, to `name` in
  /// `directory`; returns the file's path for `--config`.
  @discardableResult
  package static func write(
    _ yaml: String, storageURL: String? = nil, in directory: TemporaryDirectory,
    name: String = "pipelines.yaml"
  ) throws -> String {
    let path = directory.path(name)
    let storage = storageURL.map { "storage:\n  url: \($0)\n" } ?? ""
    try (storage + yaml + (yaml.hasSuffix("\n") ? "" : "\n")).write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
