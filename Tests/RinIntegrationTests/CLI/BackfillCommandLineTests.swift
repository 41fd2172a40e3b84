import Foundation
import RinTestSupport
import Testing

/// `rinjobs backfill` through the executable on both backends: one daily-score run per day in
/// order, a second call runs nothing, a failure stops at its day and the next call resumes there.
@Suite("rinjobs backfill", .onItsOwnThread)
struct BackfillCommandLineTests {
  static func backfill(_ db: TestDatabase, _ extra: [String] = []) async throws -> Executable.Result {
    try await db.run(
      "rinjobs",
      ["backfill", "daily-score", "--from", "2026-11-01", "--to", "2026-11-05"] + Self.clock + extra)
  }

  /// The night after the last day: the days stay inside the snapshot window whenever this runs.
  static let clock = ["--now", "2026-11-06T03:00:00Z"]

  static func snapshotDays(_ db: TestDatabase) throws -> [String] {
    try db.strings("SELECT DISTINCT as_of FROM score_snapshots ORDER BY as_of")
  }

  static func runs(_ db: TestDatabase) throws -> Int {
    try db.int("SELECT count(*) FROM job_runs WHERE job = 'daily-score'")
  }

  @Test(arguments: Backend.available) func fiveDaysThenNothingThenResumeAfterAFailure(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 12, seed: 2)
    let dry = try await Self.backfill(db, ["--dry-run"])
    #expect(dry.exitCode == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("2026-11-01  run (never ran)"))
    #expect(dry.stdout.contains("dry run: 5 of 5 days would run; nothing ran"))
    #expect(try Self.runs(db) == 0)

    let first = try await Self.backfill(db)
    #expect(first.exitCode == 0, "\(first.stderr)")
    #expect(try Self.snapshotDays(db) == (1...5).map { "2026-11-0\($0)" })
    #expect(try Self.runs(db) == 5)

    let again = try await Self.backfill(db)
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(try Self.runs(db) == 5, "a second call runs nothing")
    #expect(again.stdout.contains("2026-11-03  skip: succeeded in run"))
    #expect(again.stdout.contains("0 days ran, 5 skipped"))

    let all = try await Self.backfill(db, ["--reprocess", "all", "--backwards", "--dry-run"])
    #expect(all.stdout.hasPrefix("2026-11-05  run (--reprocess all)"), "\(all.stdout)")
  }

  @Test(arguments: Backend.available) func aFailureStopsAtItsDayAndTheNextCallResumesThere(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 12, seed: 2)
    // A real failure of the database on one day's writes.
    switch backend {
    case .sqlite:
      try db.execute(
        """
        CREATE TRIGGER fail_one_day BEFORE INSERT ON score_snapshots WHEN NEW.as_of = '2026-11-03'
        BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
        """)
    case .postgres:
      try db.execute(
        """
        CREATE FUNCTION fail_one_day() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.as_of = '2026-11-03' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; RETURN NEW; END $$
        """)
      try db.execute(
        "CREATE TRIGGER fail_one_day BEFORE INSERT ON score_snapshots FOR EACH ROW EXECUTE FUNCTION fail_one_day()"
      )
    }
    let failed = try await Self.backfill(db)
    #expect(failed.exitCode == 1, "\(failed.stdout)")
    #expect(failed.stderr.contains("stopped at 2026-11-03"), "\(failed.stderr)")
    #expect(failed.stderr.contains("continue from 2026-11-03"))
    #expect(try Self.snapshotDays(db) == ["2026-11-01", "2026-11-02"])
    #expect(
      try db.int("SELECT count(*) FROM job_runs WHERE job = 'daily-score' AND as_of > '2026-11-03'") == 0)

    let failedOnly = try await Self.backfill(db, ["--reprocess", "failed", "--dry-run"])
    #expect(failedOnly.stdout.contains("2026-11-03  run (run "), "\(failedOnly.stdout)")
    #expect(failedOnly.stdout.contains("2026-11-04  skip: never ran"), "\(failedOnly.stdout)")

    try db.execute("DROP TRIGGER fail_one_day\(backend == .postgres ? " ON score_snapshots" : "")")
    let resumed = try await Self.backfill(db)
    #expect(resumed.exitCode == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("2026-11-01  skip: succeeded"))
    #expect(resumed.stdout.contains("3 days ran, 2 skipped"), "\(resumed.stdout)")
    #expect(try Self.snapshotDays(db) == (1...5).map { "2026-11-0\($0)" })
    #expect(
      try db.int("SELECT count(*) FROM job_runs WHERE job = 'daily-score' AND status = 'succeeded'") == 5)
  }

  @Test func onlyDatedJobsAndOrderedDates() async throws {
    let db = try TestDatabase()
    let wrongJob = try await db.run(
      "rinjobs", ["backfill", "badge-recount", "--from", "2026-11-01", "--to", "2026-11-02"])
    #expect(wrongJob.exitCode == 64 && wrongJob.stderr.contains("works on the present only"))
    let reversed = try await db.run(
      "rinjobs", ["backfill", "daily-score", "--from", "2026-11-05", "--to", "2026-11-01"])
    #expect(reversed.exitCode == 64 && reversed.stderr.contains("is after --to"))
  }

  /// A day whose snapshots history-retention would delete is refused before anything runs, at
  /// a short window and at the default one (the test configuration's 400 days) once the day is older.
  @Test func aDayBeforeTheSnapshotWindowIsRefused() async throws {
    let db = try TestDatabase(seedUsers: 4, seed: 2)
    let directory = try TemporaryDirectory()
    let config = try TestConfigFile.write(
      "jobs:\n  history-retention:\n    keep:\n      score_snapshots: 8d\n", in: directory)
    let short = try await db.run(
      "rinjobs", ["backfill", "daily-score", "--from", "2026-10-28", "--to", "2026-11-05"] + Self.clock,
      config: config)
    #expect(short.exitCode == 64, "\(short.stderr)")
    #expect(
      short.stderr.contains("--from 2026-10-28 is before 2026-10-29")
        && short.stderr.contains("jobs.history-retention.keep.score_snapshots: 8d, in \(config)"),
      "\(short.stderr)")
    #expect(try Self.runs(db) == 0 && Self.snapshotDays(db).isEmpty)

    let inside = try await db.run(
      "rinjobs", ["backfill", "daily-score", "--from", "2026-10-29", "--to", "2026-10-29"] + Self.clock,
      config: config)
    #expect(inside.exitCode == 0, "\(inside.stderr)")

    let aYearLater = try await db.run(
      "rinjobs",
      [
        "backfill", "daily-score", "--from", "2026-11-01", "--to", "2026-11-01", "--now",
        "2027-12-31T03:00:00Z",
      ])
    #expect(aYearLater.exitCode == 64, "\(aYearLater.stderr)")
    #expect(
      aYearLater.stderr.contains("before 2026-11-26")
        && aYearLater.stderr.contains("score_snapshots: 400d, in "), "\(aYearLater.stderr)")
  }
}
