import Foundation
import GRDB
import RinDomain
import RinSeed
import RinStorage
import RinTestSupport
import Testing

/// docs/OPERATIONS.md "Roles and grants", as written there: the schema belongs to a migrator
/// role that only `rinjobs migrate` uses; every pipeline runs as a role with DML rights only
/// (and EXECUTE on the two partition functions); the report reads with SELECT alone. A job
/// never changes the schema on PostgreSQL: with a step pending it exits 78 naming the command.
@Suite("roles and grants on PostgreSQL", .onItsOwnThread)
struct RolesAndGrantsTests {
  /// Role names are the cluster's, shared by every test process and database: made unique.
  static let suffix = "\(ProcessInfo.processInfo.processIdentifier)_\(Int.random(in: 0..<1_000_000))"

  /// The statements docs/OPERATIONS.md gives, for these role names.
  static func grants(owner: String, job: String, report: String) -> String {
    """
    GRANT CREATE, USAGE ON SCHEMA public TO \(owner);
    GRANT USAGE ON SCHEMA public TO \(job), \(report);
    ALTER DEFAULT PRIVILEGES FOR ROLE \(owner) IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO \(job);
    ALTER DEFAULT PRIVILEGES FOR ROLE \(owner) IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO \(job);
    ALTER DEFAULT PRIVILEGES FOR ROLE \(owner) IN SCHEMA public GRANT SELECT ON TABLES TO \(report);
    """
  }

  static func url(_ url: String, user: String) -> String {
    url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://\(user)@")
  }

  @Test(arguments: Backend.available.filter { $0 == .postgres })
  func everyPipelineRunsAsADMLOnlyRoleAfterMigrateRanAsTheOwner(backend: Backend) async throws {
    let cluster = try PostgresCluster.shared.get()
    let admin = try cluster.createDatabase()
    let (owner, job, report) = (
      "rin_owner_\(Self.suffix)", "rin_job_\(Self.suffix)", "rin_report_\(Self.suffix)"
    )
    let superuser = try TestPostgresConnection(url: admin)
    try superuser.execute(
      "CREATE ROLE \(owner) LOGIN; CREATE ROLE \(job) LOGIN; CREATE ROLE \(report) LOGIN;"
        + Self.grants(owner: owner, job: job, report: report))
    let (ownerURL, jobURL, reportURL) = (
      Self.url(admin, user: owner), Self.url(admin, user: job), Self.url(admin, user: report)
    )
    let folder = try TemporaryDirectory()

    // Before `migrate`, a job says what to run and changes nothing.
    let early = try await Executable.run("rinjobs", ["run", "badge-recount", "--db", jobURL])
    #expect(early.exitCode == 78, "\(early.stderr)")
    #expect(early.stderr.contains("run `rinjobs migrate`"), "\(early.stderr)")
    #expect(try superuser.execute("SELECT to_regclass('rin_migrations') IS NULL")[0][0] == true.databaseValue)

    let migrated = try await Executable.run("rinjobs", ["migrate", "--db", ownerURL])
    #expect(migrated.exitCode == 0, "\(migrated.stderr)")
    try superuser.execute(
      """
      GRANT EXECUTE ON FUNCTION rin_create_score_snapshot_partition(text, text, text),
        rin_drop_score_snapshot_partition(text) TO \(job);
      GRANT TRUNCATE ON invite_clicks, provider_key_claims TO \(job);
      """)
    // The services' data, written as the services would (their own grants are theirs).
    let seeding = try Storage.open(url: ownerURL)
    _ = try Seeder.seed(
      into: seeding, options: SeedOptions(users: 30, seed: 5, now: UTCInstant(seconds: TestClock.now)))

    let config = try TestConfigFile.write(
      TestConfigFile.nightlyPipeline
        + TestConfigFile.pipelines("hourly", schedule: "0 * * * *", jobs: ["upcoming-birthdays"]).dropFirst(
          "pipelines:\n".count)
        + TestConfigFile.pipelines("retention", schedule: "15 * * * *", jobs: ["attribution-expiry"])
        .dropFirst(
          "pipelines:\n".count),
      in: folder)
    // TestClock.now: the seed's clock.
    let now = "2026-11-22T12:00:00Z"
    for pipeline in ["nightly", "hourly", "retention"] {
      let ran = try await Executable.run(
        "rinjobs", ["pipeline", "run", pipeline, "--config", config, "--db", jobURL, "--now", now])
      #expect(ran.exitCode == 0, "\(pipeline) as the job role: \(ran.stderr.suffix(1_500))")
    }
    let scored = try superuser.execute("SELECT count(*) FROM score_snapshots")[0][0]
    #expect(Int.fromDatabaseValue(scored).map { $0 > 0 } == true)
    // The job role can change no schema: not even the table the pipelines just wrote.
    let asJob = try TestPostgresConnection(url: jobURL)
    #expect(throws: (any Error).self) { try asJob.execute("ALTER TABLE badge_counts ADD COLUMN x INTEGER") }
    #expect(throws: (any Error).self) { try asJob.execute("CREATE TABLE rin_anything (x INTEGER)") }

    // The report reads with SELECT alone.
    let written = try await Executable.run(
      "rinjobs", ["report", "--db", reportURL, "--out", folder.path("report.html"), "--now", now])
    #expect(written.exitCode == 0, "\(written.stderr.suffix(1_500))")
    // The footprint reads the catalogs and counts users: no grant beyond the job's.
    let footprint = try await Executable.run("rinjobs", ["footprint", "--db", jobURL])
    #expect(footprint.exitCode == 0 && footprint.stdout.contains("kept"), "\(footprint.stderr.suffix(1_500))")

    // A release whose migration is not applied yet: the job refuses, exit 78, naming the command.
    try superuser.execute("DELETE FROM rin_migrations WHERE identifier = 'partition score snapshots by day'")
    try superuser.execute(
      "DELETE FROM rin_migrations WHERE identifier = 'mark the slots a catch-up superseded in a column of the run ledger'"
    )
    let behind = try await Executable.run("rinjobs", ["run", "badge-recount", "--db", jobURL, "--now", now])
    #expect(behind.exitCode == 78, "\(behind.stderr)")
    #expect(behind.stderr.contains("schema migration is pending"), "\(behind.stderr)")
    #expect(behind.stderr.contains("mark the slots a catch-up superseded"), "\(behind.stderr)")
    #expect(!behind.stderr.contains("Fatal error"), "\(behind.stderr)")

    // One role at a time: a default ACL names two of them, which one DROP OWNED of all three
    // would remove twice.
    for role in [job, report, owner] {
      try superuser.execute("REASSIGN OWNED BY \(role) TO postgres")
      try superuser.execute("DROP OWNED BY \(role)")
    }
    try superuser.execute("DROP ROLE \(job); DROP ROLE \(report); DROP ROLE \(owner)")
  }
}
