import Foundation
import RinTestSupport
import Testing

/// A dry run needs nothing it would not use and changes nothing: no provider secret, and not
/// even the schema of a new (empty) database file.
@Suite("Dry runs that need and change nothing", .onItsOwnThread)
struct DryRunCommandLineTests {
  var repoConfig: String { Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path }

  @Test func theNightlyDryRunNeedsNoProviderKey() async throws {
    let db = try TestDatabase(seedUsers: 20, seed: 3)
    let noKey = ["RIN_ENRICH_API_KEY": ""]
    let dry = try await db.run(
      "rinjobs",
      [
        "pipeline", "run", "nightly", "--dry-run", "--config", repoConfig, "--now",
        "2026-11-22",
      ],
      environment: noKey)
    #expect(dry.exitCode == 0, "\(dry.stdout) \(dry.stderr)")
    #expect(!dry.stderr.contains("RIN_ENRICH_API_KEY"), "\(dry.stderr)")
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE dry_run = 1 AND status = 'failed'") == 0)
    #expect(try db.int("SELECT count(*) FROM enrichment_lookups") == 0)
    #expect(try db.int("SELECT count(*) FROM score_snapshots") == 0, "nothing committed")

    // A real run still needs the key: exit 78, naming the variable.
    let real = try await db.run(
      "rin-enrichment-fetch", ["--config", repoConfig, "--now", "2026-11-22"],
      environment: noKey)
    #expect(real.exitCode == 78)
    #expect(real.stderr.contains("RIN_ENRICH_API_KEY"), "\(real.stderr)")
  }

  @Test func aDryRunOnAnEmptyFileSaysWhatItWouldMigrateAndLeavesTheFileEmpty() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("new.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let job = try await Executable.run("rin-badge-recount", ["--db", path, "--dry-run"])
    #expect(job.exitCode == 0, "\(job.stderr)")
    #expect(job.stdout.contains("dry run: \(path) lacks"), "\(job.stdout)")
    #expect(job.stdout.contains("rinjobs migrate"), "\(job.stdout)")
    let pipeline = try await Executable.run(
      "rinjobs", ["pipeline", "run", "hourly", "--dry-run", "--config", repoConfig, "--db", path])
    #expect(pipeline.exitCode == 0, "\(pipeline.stderr)")
    #expect(pipeline.stdout.contains("lacks"), "\(pipeline.stdout)")
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(size == 0, "the file is still empty")
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }
}
