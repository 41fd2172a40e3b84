import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

/// Issue 52 items 2 and 9: where the database URL may come from, and the lesser findings (a
/// pause's reason with terminal escapes, a clicks window past the spec's 7 days, a huge YAML).
@Suite("security: URL sources and lesser findings", .onItsOwnThread)
struct SecurityItemsCommandLineTests {
  static let pipelines = """
    pipelines:
      counts: {schedule: "0 * * * *", timezone: UTC, jobs: [badge-recount]}
    """

  /// `--db`, then `RIN_DATABASE_URL_FILE` (its trailing newline trimmed), then
  /// `RIN_DATABASE_URL`, then `storage.url`.
  @Test func theDatabaseURLComesFromTheOptionTheFileTheVariableOrTheConfigInThatOrder() async throws {
    let directory = try TemporaryDirectory()
    let names = ["option", "file", "variable", "config"]
    for name in names {
      let made = try await Executable.run("rinjobs", ["migrate", "--db", directory.path("\(name).sqlite")])
      #expect(made.exitCode == 0, "\(made.stderr)")
    }
    let config = try TestConfigFile.write(
      Self.pipelines, storageURL: directory.path("config.sqlite"), in: directory)
    let urlFile = directory.path("url")
    try (directory.path("file.sqlite") + "\n").write(toFile: urlFile, atomically: true, encoding: .utf8)
    func where_(_ arguments: [String], _ environment: [String: String]) async throws -> String {
      let run = try await Executable.run(
        "rinjobs", ["migrate", "--config", config] + arguments, environment: environment)
      #expect(run.exitCode == 0, "\(run.stderr)")
      return run.stdout
    }
    let both = ["RIN_DATABASE_URL_FILE": urlFile, "RIN_DATABASE_URL": directory.path("variable.sqlite")]
    #expect(try await where_(["--db", directory.path("option.sqlite")], both).contains("option.sqlite"))
    #expect(try await where_([], both).contains("file.sqlite"))
    #expect(try await where_([], ["RIN_DATABASE_URL": both["RIN_DATABASE_URL"]!]).contains("variable.sqlite"))
    #expect(try await where_([], [:]).contains("config.sqlite"))

    let missing = try await Executable.run(
      "rinjobs", ["status", "--config", config],
      environment: ["RIN_DATABASE_URL_FILE": directory.path("none")])
    #expect(missing.exitCode == 78, "\(missing.stderr)")
    #expect(missing.stderr.contains("RIN_DATABASE_URL_FILE"), "\(missing.stderr)")
  }

  @Test func aPauseReasonWithTerminalEscapesIsStoredAndPrintedWithoutThem() async throws {
    let db = try TestDatabase()
    let config = try TestConfigFile.write(Self.pipelines, storageURL: db.path, in: db.directory)
    let reason = "upgrade\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[1Aline two\u{9B}1m"
    let pause = try await db.run(
      "rinjobs", ["pipeline", "pause", "counts", "--reason", reason], config: config)
    #expect(pause.exitCode == 0, "\(pause.stderr)")
    let status = try await db.run("rinjobs", ["status"], config: config)
    for printed in [pause.stdout, status.stdout] {
      #expect(printed.contains("upgrade"), "\(printed)")
      #expect(!printed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
    }
    let stored = try db.strings("SELECT reason FROM pipeline_pauses")
    #expect(stored.count == 1 && !stored[0].contains("\u{1B}"), "\(stored)")
  }

  @Test func aConfigFileOverOneMebibyteIsRefusedBeforeParsing() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("pipelines.yaml")
    let line = "# " + String(repeating: "x", count: 1_000) + "\n"
    try (Self.pipelines + "\n" + String(repeating: line, count: 1_100)).write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try await Executable.run("rinjobs", ["validate", "--config", path])
    #expect(run.exitCode == 78)
    #expect(run.stderr.contains("\(path):1:1:") && run.stderr.contains("over the limit"), "\(run.stderr)")
  }

  @Test func aClicksWindowPastSevenDaysIsRefusedAndTheConnectTimeoutIsASetting() throws {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse(
        yaml: "jobs:\n  attribution-expiry: {window: 3650d}\n", file: "p.yaml", jobs: JobCatalog.settings)
    }
    #expect(error?.description.hasPrefix("p.yaml:2:") == true, "\(String(describing: error))")
    #expect(error?.message.contains("longer than 7d") == true)
    let seven = try ConfigLoader.parse(
      yaml: "jobs:\n  attribution-expiry: {window: 7d}\n", file: "p.yaml", jobs: JobCatalog.settings)
    #expect(seven.jobs[AttributionExpiryJob.self].window == .seconds(7 * 86_400))

    #expect(RinConfig.defaults().storage.connectTimeout == .seconds(10))
    let set = try ConfigLoader.parse(
      yaml: "storage: {connect_timeout: 3s}\n", file: "p.yaml", jobs: JobCatalog.settings)
    #expect(set.storage.connectTimeout == .seconds(3))
  }
}
