import Foundation
import GRDB
import RinRuntime
import RinTestSupport
import Testing

/// Issue 52 item 6: what rin-jobs creates is its owner's, whatever the umask: the database's
/// folders 0700, the database and its `-wal` and `-shm` 0600 (names, phones, emails), metrics
/// files and reports 0640; and a temporary file is never a symlink someone else planted.
@Suite("files only their owner reads", .onItsOwnThread)
struct FileModeCommandLineTests {
  static func mode(_ path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
  }

  /// The umask most hosts have, for the duration of `body` (children inherit it).
  static func underUmask022<T>(_ body: () async throws -> T) async rethrows -> T {
    let previous = umask(0o022)
    defer { umask(previous) }
    return try await body()
  }

  @Test func migrateCreatesAnOwnerOnlyDatabaseUnderUmask022() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("new/sub/rin.sqlite")
    let migrate = try await Self.underUmask022 {
      try await Executable.run("rinjobs", ["migrate", "--db", path])
    }
    #expect(migrate.exitCode == 0, "\(migrate.stderr)")
    #expect(Self.mode(directory.path("new")) == 0o700)
    #expect(Self.mode(directory.path("new/sub")) == 0o700)
    #expect(Self.mode(path) == 0o600)
    // The side files exist while a connection is open.
    let queue = try DatabaseQueue(path: path)
    _ = try queue.inDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM users") }
    for side in ["-wal", "-shm"] {
      #expect(FileManager.default.fileExists(atPath: path + side), "\(side)")
      #expect(Self.mode(path + side) == 0o600, "\(side): \(String(Self.mode(path + side), radix: 8))")
    }
  }

  @Test func metricsFilesAndReportsAre0640UnderUmask022() async throws {
    let db = try TestDatabase()
    let metrics = db.directory.path("m.prom")
    let report = db.directory.path("report.html")
    let (run, written) = try await Self.underUmask022 {
      (
        try await db.run("rin-badge-recount", ["--metrics-file", metrics]),
        try await db.run("rinjobs", ["report", "--out", report])
      )
    }
    #expect(run.exitCode == 0 && written.exitCode == 0, "\(run.stderr) \(written.stderr)")
    #expect(Self.mode(metrics) == 0o640, "\(String(Self.mode(metrics), radix: 8))")
    #expect(Self.mode(report) == 0o640, "\(String(Self.mode(report), radix: 8))")
  }

  /// On main the temporary file was `.<name>.<pid>.tmp`, opened without O_EXCL or O_NOFOLLOW:
  /// another user's symlink there made the write land in the link's target.
  @Test func aPlantedSymlinkAtTheTemporaryPathIsNotFollowed() throws {
    let directory = try TemporaryDirectory()
    let victim = directory.path("victim")
    try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
    let path = directory.path("m.prom")
    for tag in ["tmp", "probe"] {
      try FileManager.default.createSymbolicLink(
        atPath: directory.path(".m.prom.\(getpid()).\(tag)"), withDestinationPath: victim)
    }
    try OutputFile.write("rin_metric 1\n", to: path, what: "metrics file")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "rin_metric 1\n")
    var status = stat()
    #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(
      left.filter { $0.hasPrefix(".m.prom.") && !$0.hasSuffix("tmp") && !$0.hasSuffix("probe") }.isEmpty)
  }
}
