import Foundation
import Testing

/// upcoming-birthdays and attribution-expiry through their real executables on a seeded file.
@Suite("upcoming-birthdays and attribution-expiry executables")
struct BirthdaysAndExpiryCommandLineTests {
  func json(_ result: Executable.Result) throws -> [String: Any] {
    #expect(result.exitCode == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test(arguments: Backend.available) func bothJobsRunOnASeededFileAndASecondRunChangesNothing(backend: Backend) throws {
    let db = try TestDatabase(backend, seedUsers: 40, seed: 9)
    let now = "2026-11-22T12:00:00Z"
    for job in ["rin-upcoming-birthdays", "rin-attribution-expiry"] {
      let dry = try json(try Executable.run(job, ["--db", db.path, "--now", now, "--dry-run", "--json"]))
      let first = try json(try Executable.run(job, ["--db", db.path, "--now", now, "--json"]))
      #expect(first["status"] as? String == "succeeded")
      let firstChanges = try #require(first["changes"] as? [String: Any])
      let dryChanges = try #require(dry["changes"] as? [String: Any])
      #expect(
        NSDictionary(dictionary: firstChanges).isEqual(to: dryChanges),
        "\(job): the dry run reported other changes")
      #expect(!firstChanges.isEmpty, "\(job) found work in the seed")

      let before = try db.contentDigest()
      let second = try json(try Executable.run(job, ["--db", db.path, "--now", now, "--json"]))
      let secondChanges = try #require(second["changes"] as? [String: Any])
      #expect((secondChanges["tables"] as? [String: Any])?.isEmpty ?? true, "\(job): \(secondChanges)")
      #expect(try db.contentDigest() == before)
    }
    #expect(try db.int("SELECT count(*) FROM upcoming_events") > 0)
    #expect(try db.int("SELECT count(*) FROM notification_outbox WHERE kind = 'reminder_due'") > 0)
    #expect(try db.int("SELECT count(*) FROM invite_clicks WHERE clicked_at <= ?", [1_794_744_000]) == 0)
  }

  @Test(arguments: Backend.available) func theHumanSummaryReportsTheOldestClickKept(backend: Backend) throws {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 9)
    let result = try Executable.run(
      "rin-attribution-expiry", ["--db", db.path, "--now", "2026-11-22T12:00:00Z"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("oldest click kept: 2026-11-15T12:00:01Z"))
    #expect(result.stdout.contains("clicks deleted: "))
  }
}
