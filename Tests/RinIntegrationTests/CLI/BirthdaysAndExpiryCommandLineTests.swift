import Foundation
import RinTestSupport
import Testing

/// upcoming-birthdays and attribution-expiry through their real executables on a seeded file.
@Suite("upcoming-birthdays and attribution-expiry executables", .onItsOwnThread)
struct BirthdaysAndExpiryCommandLineTests {
  func json(_ result: Executable.Result) throws -> [String: Any] {
    #expect(result.exitCode == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test(arguments: Backend.available) func bothJobsRunOnASeededFileAndASecondRunChangesNothing(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 40, seed: 9)
    let now = "2026-11-22T12:00:00Z"
    for job in ["rin-upcoming-birthdays", "rin-attribution-expiry"] {
      let dry = try json(
        try await db.run(job, ["--now", now, "--dry-run", "--json"]))
      let first = try json(try await db.run(job, ["--now", now, "--json"]))
      #expect(first["status"] as? String == "succeeded")
      let firstChanges = try #require(first["changes"] as? [String: Any])
      let dryChanges = try #require(dry["changes"] as? [String: Any])
      #expect(
        NSDictionary(dictionary: firstChanges).isEqual(to: dryChanges),
        "\(job): the dry run reported other changes")
      #expect(!firstChanges.isEmpty, "\(job) found work in the seed")

      let before = try db.contentDigest()
      let second = try json(try await db.run(job, ["--now", now, "--json"]))
      let secondChanges = try #require(second["changes"] as? [String: Any])
      #expect((secondChanges["tables"] as? [String: Any])?.isEmpty ?? true, "\(job): \(secondChanges)")
      #expect(try db.contentDigest() == before)
    }
    #expect(try db.int("SELECT count(*) FROM upcoming_events") > 0)
    #expect(try db.int("SELECT count(*) FROM notification_outbox WHERE kind = 'reminder_due'") > 0)
    #expect(try db.int("SELECT count(*) FROM invite_clicks WHERE clicked_at <= ?", [1_794_744_000]) == 0)
  }

  @Test(arguments: Backend.available) func theHumanSummaryReportsTheOldestClickKept(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 9)
    let result = try await db.run(
      "rin-attribution-expiry", ["--now", "2026-11-22T12:00:00Z"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("oldest click kept: 2026-11-15T12:00:01Z"))
    #expect(result.stdout.contains("clicks deleted: "))
  }

  /// `jobs.upcoming-birthdays.feb29_in_common_years`: a Feb 29 birthday on Feb 28 (the default)
  /// or Mar 1 of a common year, through the executable on both backends.
  @Test(arguments: Backend.available) func aFeb29BirthdayFallsWhereTheConfigSays(backend: Backend)
    async throws
  {
    for (rule, day, daysUntil) in [("feb28", "2027-02-28", 1), ("mar1", "2027-03-01", 2)] {
      let db = try TestDatabase(backend)
      try db.execute("INSERT INTO users (id, timezone, created_at) VALUES (1, 'UTC', 0)")
      try db.execute(
        "INSERT INTO contacts (id, user_id, birthday, created_at) VALUES (10, 1, '--02-29', 0), (11, 1, '2000-02-29', 0)"
      )
      let config = try TestConfigFile.write(
        "jobs:\n  upcoming-birthdays: {feb29_in_common_years: \(rule)}", in: db.directory)
      let run = try await db.run(
        "rin-upcoming-birthdays", ["--config", config, "--now", "2027-02-27T12:00:00Z"])
      #expect(run.exitCode == 0, "\(run.stderr)")
      let events = try db.strings(
        "SELECT contact_id || ' ' || occurs_on || ' ' || days_until FROM upcoming_events ORDER BY contact_id")
      #expect(events == ["10 \(day) \(daysUntil)", "11 \(day) \(daysUntil)"], "\(rule)")
    }
  }
}
