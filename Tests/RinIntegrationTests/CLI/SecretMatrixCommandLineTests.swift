import Foundation
import RinTestSupport
import Testing

/// Issue 52 items 2 and 3: whichever way the database URL comes (`--db`, `storage.url`,
/// `RIN_DATABASE_URL`, `RIN_DATABASE_URL_FILE`) and whichever form carries its password
/// (`user:password@`, `?password=`, libpq's `key=value`), no command prints it: not on stdout,
/// stderr, in `--json`, a metrics file or the report; real processes, a real PostgreSQL.
@Suite("no secret in any printed text", .onItsOwnThread)
struct SecretMatrixCommandLineTests {
  static let secret = "Pw-\(UUID().uuidString.prefix(8))-s3cr3t"

  enum Form: String, CaseIterable { case userInfo, query, keyValue }
  enum Way: String, CaseIterable { case option, configFile, variable, file }

  /// The cluster's URL (trust authentication: the password is accepted whatever it is) with
  /// the secret in the given form.
  static func url(_ base: String, _ form: Form) -> String {
    let parts = URLComponents(string: base)!
    switch form {
    case .userInfo: return base.replacingOccurrences(of: "postgres@", with: "postgres:\(secret)@")
    case .query: return base + "?password=\(secret)&application_name=matrix"
    case .keyValue:
      return
        "host=\(parts.host!) port=\(parts.port!) dbname=\(parts.path.dropFirst()) user=postgres password=\(secret)"
    }
  }

  struct Setup {
    var arguments: [String]
    var environment: [String: String]
  }

  static func setup(_ way: Way, url: String, in directory: TemporaryDirectory) throws -> Setup {
    let pipelines = """
      pipelines:
        counts: {schedule: "0 * * * *", timezone: UTC, jobs: [badge-recount]}
      """
    switch way {
    case .option:
      let config = try TestConfigFile.write(pipelines, in: directory, name: "option.yaml")
      return Setup(arguments: ["--config", config, "--db", url], environment: [:])
    case .configFile:
      let config = try TestConfigFile.write(
        pipelines, storageURL: "'\(url)'", in: directory, name: "file.yaml")
      return Setup(arguments: ["--config", config], environment: [:])
    case .variable:
      let config = try TestConfigFile.write(pipelines, in: directory, name: "variable.yaml")
      return Setup(arguments: ["--config", config], environment: ["RIN_DATABASE_URL": url])
    case .file:
      let config = try TestConfigFile.write(pipelines, in: directory, name: "secretfile.yaml")
      let secretFile = directory.path("database-url")
      try (url + "\n").write(toFile: secretFile, atomically: true, encoding: .utf8)
      return Setup(arguments: ["--config", config], environment: ["RIN_DATABASE_URL_FILE": secretFile])
    }
  }

  /// Every command that opens the database or prints the URL, with what each writes.
  static func commands(_ directory: TemporaryDirectory, way: Way) -> [(String, [String], [String])] {
    let metrics = directory.path("m-\(way).prom")
    let report = directory.path("r-\(way).html")
    var commands: [(String, [String], [String])] = [
      ("rinjobs", ["migrate"], []),
      ("rinjobs", ["migrate", "--dry-run"], []),
      ("rin-badge-recount", ["--json", "--metrics-file", metrics], [metrics]),
      ("rinjobs", ["pipeline", "run", "counts", "--json", "--metrics-file", metrics], [metrics]),
      ("rinjobs", ["status"], []),
      ("rinjobs", ["status", "--json"], []),
      ("rinjobs", ["history"], []),
      ("rinjobs", ["report", "--out", report], [report]),
    ]
    if way != .option { commands.append(("rinjobs", ["validate"], [])) }
    return commands
  }

  @Test(arguments: Form.allCases) func noCommandPrintsThePassword(form: Form) async throws {
    guard Backend.available.contains(.postgres) else { return }
    let base = try PostgresCluster.shared.get().createDatabase()
    let directory = try TemporaryDirectory()
    let url = Self.url(base, form)
    for way in Way.allCases {
      let setup = try Self.setup(way, url: url, in: directory)
      for (executable, arguments, files) in Self.commands(directory, way: way) {
        let arguments =
          arguments + setup.arguments.filter { !(arguments.first == "validate" && $0 == "--db") }
        let result = try await offPool {
          try Executable.runBlocking(
            executable, arguments, environment: setup.environment, in: directory.url.path)
        }
        let label = "\(form) \(way) \(executable) \(arguments.prefix(2).joined(separator: " "))"
        // `status` exits 1 for the pipeline it finds overdue (it never ran on schedule).
        let expected: Set<Int32> = arguments.first == "status" ? [0, 1] : [0]
        #expect(expected.contains(result.exitCode), "\(label): \(result.stderr)")
        var printed = result.stdout + result.stderr
        for file in files { printed += (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        #expect(!printed.contains(Self.secret), "\(label) printed the password: \(printed.prefix(2_000))")
        #expect(
          way != .option || result.stderr.contains("--db holds a password"), "\(label) warns about ps")
      }
    }
    // A key=value string is PostgreSQL, never a SQLite file named after it.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!names.contains { $0.contains("host=") || $0.contains(Self.secret) }, "\(names)")
  }

  @Test func failuresDoNotPrintThePasswordEither() async throws {
    let directory = try TemporaryDirectory()
    // Nothing listens on port 9: the connect fails, and its error names the URL.
    for url in [
      "postgresql://rin:\(Self.secret)@127.0.0.1:9/rin",
      "postgresql://rin@127.0.0.1:9/rin?password=\(Self.secret)",
      "host=127.0.0.1 port=9 dbname=rin user=rin password=\(Self.secret)",
    ] {
      for (executable, arguments) in [
        ("rin-badge-recount", ["--json"]), ("rinjobs", ["status"]), ("rinjobs", ["migrate"]),
        ("rinjobs", ["migrate", "--dry-run"]),
      ] {
        let result = try await Executable.run(
          executable, arguments, environment: ["RIN_DATABASE_URL": url], in: directory.url.path)
        #expect(result.exitCode == 75, "\(url) \(arguments): \(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1"), "the location is still named: \(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(Self.secret), "\(result.stderr)")
      }
    }
    // A config file's URLs: the Pushgateway's, rejected, is quoted masked.
    let config = try TestConfigFile.write(
      "metrics: {push_url: 'ftp://admin:\(Self.secret)@gw'}",
      storageURL: "'postgres://rin:\(Self.secret)@db/rin'",
      in: directory)
    let validate = try await Executable.run("rinjobs", ["validate", "--config", config])
    #expect(validate.exitCode == 78)
    #expect(validate.stderr.contains("ftp://admin:***@gw"), "\(validate.stderr)")
    #expect(!validate.stderr.contains(Self.secret))
    let push = try await Executable.run(
      "rin-badge-recount",
      ["--metrics-push", "ftp://admin:\(Self.secret)@gw", "--db", directory.path("x.sqlite")])
    #expect(push.exitCode == 64)
    #expect(!push.stderr.contains(Self.secret), "\(push.stderr)")
  }
}
