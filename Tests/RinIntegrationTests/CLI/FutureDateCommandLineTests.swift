import Foundation
import RinTestSupport
import Testing

/// Dates an operator mistypes: a day in the future is refused unless asked for, an impossible
/// day says why, and a long backfill says how many days it will run and asks for `--yes`.
@Suite("Dates in the future and long backfills", .onItsOwnThread)
struct FutureDateCommandLineTests {
  @Test func anAsOfAfterTodayIsRefusedUnlessAllowed() async throws {
    let db = try TestDatabase(seedUsers: 5)
    let refused = try await db.run("rin-daily-score", ["--as-of", "2099-01-01"])
    #expect(refused.exitCode == 64)
    #expect(refused.stderr.contains("--as-of 2099-01-01 is after today"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--allow-future"), "\(refused.stderr)")
    #expect(try db.int("SELECT count(*) FROM job_runs") == 0)
    #expect(try db.int("SELECT count(*) FROM score_snapshots") == 0)

    let allowed = try await db.run(
      "rin-daily-score", ["--as-of", "2099-01-01", "--allow-future", "--dry-run"])
    #expect(allowed.exitCode == 0, "\(allowed.stderr)")
  }

  /// Today is the day of the command's clock: a night replayed with `--now` may compute for its
  /// own day, and not for the next.
  @Test func todayIsTheDayOfNowWhenGiven() async throws {
    let db = try TestDatabase(seedUsers: 5)
    let replayed = try await db.run(
      "rin-daily-score", ["--now", "2099-01-01T02:30:00Z", "--as-of", "2099-01-01", "--dry-run"])
    #expect(replayed.exitCode == 0, "\(replayed.stderr)")
    let early = try await db.run(
      "rin-daily-score", ["--now", "2098-12-31T23:30:00Z", "--as-of", "2099-01-01", "--dry-run"])
    #expect(early.exitCode == 64)
    #expect(
      early.stderr.contains("--as-of 2099-01-01 is after today (2098-12-31, UTC, by --now)"),
      "\(early.stderr)")
  }

  @Test func anImpossibleDayNamesWhatIsWrong() async throws {
    let db = try TestDatabase()
    let run = try await db.run("rin-badge-recount", ["--as-of", "2026-02-30"])
    #expect(run.exitCode == 64)
    #expect(
      run.stderr.contains("'2026-02-30' is not a day of the calendar: 2026-02 has days 01 to 28"),
      "\(run.stderr)")
    let shape = try await db.run("rin-badge-recount", ["--as-of", "22/11/2026"])
    #expect(shape.exitCode == 64)
    #expect(shape.stderr.contains("expected YYYY-MM-DD"), "\(shape.stderr)")
  }

  @Test func aBackfillIntoTheFutureIsRefused() async throws {
    let db = try TestDatabase(seedUsers: 5)
    let run = try await db.run(
      "rinjobs", ["backfill", "daily-score", "--from", "2026-11-01", "--to", "2099-01-01"])
    #expect(run.exitCode == 64)
    #expect(run.stderr.contains("--to 2099-01-01 is after today"), "\(run.stderr)")
  }

  @Test func aLongBackfillSaysHowManyDaysAndAsksForYes() async throws {
    let db = try TestDatabase(seedUsers: 3)
    let arguments = [
      "backfill", "daily-score", "--db", db.path, "--from", "2026-01-01", "--to", "2026-03-01",
      "--now", "2026-03-02T03:00:00Z",
    ]
    let asked = try await Executable.run("rinjobs", arguments)
    #expect(asked.exitCode == 64)
    #expect(asked.stderr.contains("would run daily-score for 60 days"), "\(asked.stderr)")
    #expect(asked.stderr.contains("--yes"), "\(asked.stderr)")
    #expect(try db.int("SELECT count(*) FROM job_runs") == 0, "nothing ran")

    let short = try await db.run(
      "rinjobs",
      [
        "backfill", "daily-score", "--from", "2026-01-01", "--to", "2026-01-03", "--now",
        "2026-03-02T03:00:00Z",
      ])
    #expect(short.exitCode == 0, "\(short.stderr)")
    #expect(short.stdout.contains("3 of 3 days to run"), "\(short.stdout)")

    let yes = try await Executable.run("rinjobs", arguments + ["--yes"])
    #expect(yes.exitCode == 0, "\(yes.stderr)")
    #expect(yes.stdout.contains("57 of 60 days to run, 3 already done"), "\(yes.stdout)")
  }
}
