import Foundation
import RinTestSupport
import Testing

/// Output files an operator names (`--metrics-file`, `report --out`, `crontab --check`): a path
/// that cannot be written fails before any work with exit 64, and every message names the path
/// and the cause in words, never Foundation's raw error domain.
@Suite("Output files that cannot be written", .onItsOwnThread)
struct OutputFileCommandLineTests {
  static func expectWords(_ stderr: String, naming path: String, _ cause: String) {
    #expect(stderr.contains(path), "\(stderr)")
    #expect(stderr.contains(cause), "\(stderr)")
    #expect(!stderr.contains("NSCocoaErrorDomain") && !stderr.contains("Error Domain"), "\(stderr)")
  }

  @Test func aMetricsFileInAMissingFolderFailsBeforeTheRun() async throws {
    let db = try TestDatabase()
    let path = db.directory.path("no/such/dir/m.prom")
    let run = try await db.run("rin-badge-recount", ["--metrics-file", path])
    #expect(run.exitCode == 64)
    Self.expectWords(run.stderr, naming: path, "does not exist")
    #expect(try db.int("SELECT count(*) FROM job_runs") == 0, "nothing ran")
  }

  @Test func aPipelineMetricsFileThatIsAFolderFailsBeforeTheRun() async throws {
    let db = try TestDatabase()
    let config = try TestConfigFile.write(
      """
      pipelines:
        counts:
          schedule: "0 * * * *"
          timezone: UTC
          jobs: [badge-recount]
      """, storageURL: db.path, in: db.directory)
    let run = try await Executable.run(
      "rinjobs", ["pipeline", "run", "counts", "--config", config, "--metrics-file", db.directory.url.path])
    #expect(run.exitCode == 64)
    Self.expectWords(run.stderr, naming: db.directory.url.path, "it is a folder")
    #expect(try db.int("SELECT count(*) FROM job_runs") == 0, "nothing ran")
  }

  @Test func aReportThatCannotBeWrittenSaysWhereAndWhy() async throws {
    let db = try TestDatabase()
    let missing = db.directory.path("gone/report.html")
    let run = try await db.run("rinjobs", ["report", "--out", missing])
    #expect(run.exitCode == 64)
    Self.expectWords(run.stderr, naming: missing, "does not exist")

    let folder = try await db.run(
      "rinjobs", ["report", "--out", db.directory.url.path])
    #expect(folder.exitCode == 64)
    Self.expectWords(folder.stderr, naming: db.directory.url.path, "it is a folder")

    let written = db.directory.path("report.html")
    let good = try await db.run("rinjobs", ["report", "--out", written])
    #expect(good.exitCode == 0, "\(good.stderr)")
    #expect(try String(contentsOfFile: written, encoding: .utf8).contains("<html"))
  }

  @Test func aCrontabThatCannotBeReadSaysWhy() async throws {
    let dir = try TemporaryDirectory()
    let missing = dir.path("crontab")
    let config = Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path
    let run = try await Executable.run("rinjobs", ["crontab", "--check", missing, "--config", config])
    #expect(run.exitCode == 1)
    Self.expectWords(run.stderr, naming: missing, "No such file or directory")
  }
}
