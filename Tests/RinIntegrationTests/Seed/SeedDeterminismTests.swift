import Foundation
import RinDomain
import RinSeed
import RinStorage
import RinTestSupport
import Testing

@Suite("Seeder: determinism", .onItsOwnThread)
struct SeedDeterminismTests {
  @Test("the same users, seed and now give identical content in every table")
  func sameOptionsSameContent() throws {
    let first = try SeedFixture(users: 60, seed: 42)
    let second = try SeedFixture(users: 60, seed: 42)
    let a = try first.digest()
    let b = try second.digest()
    for table in DataContract.allTables {
      #expect(a[table] == b[table], "\(table) differs between two identical seedings")
    }
  }

  @Test("commit chunking does not change the content")
  func chunkingDoesNotMatter() throws {
    let oneChunk = try SeedFixture(users: 45, seed: 3, usersPerTransaction: 1_000)
    let manyChunks = try SeedFixture(users: 45, seed: 3, usersPerTransaction: 7)
    #expect(try oneChunk.digest() == manyChunks.digest())
  }

  @Test("a different seed gives different content")
  func differentSeedDifferentContent() throws {
    let a = try SeedFixture(users: 30, seed: 1).digest()
    let b = try SeedFixture(users: 30, seed: 2).digest()
    for table in ["users", "contacts", "contact_phones", "contact_emails", "circles", "merge_suggestions"] {
      #expect(a[table] != b[table], "\(table) is the same under two seeds")
    }
  }

  @Test("a different now moves the data")
  func differentNowDifferentContent() throws {
    let a = try SeedFixture(users: 20, now: SeedFixture.now).digest()
    let b = try SeedFixture(users: 20, now: SeedFixture.now + SeedFixture.day).digest()
    #expect(a["users"] != b["users"])
  }

  @Test("seeding a database that already has users throws and adds nothing")
  func refusesNonEmptyDatabase() throws {
    let fixture = try SeedFixture(users: 3)
    let before = try fixture.digest()
    #expect(throws: SeedError.self) {
      try Seeder.seed(
        into: fixture.storage,
        options: SeedOptions(users: 3, seed: 7, now: UTCInstant(seconds: SeedFixture.now)))
    }
    #expect(try fixture.digest() == before)
  }

  @Test("the summary counts the rows written")
  func summaryCountsRows() throws {
    let fixture = try SeedFixture(users: 10)
    let summary = try #require(fixture.summary)
    #expect(summary.rows["users"] == 10)
    #expect(summary.rows["contacts"] == (try fixture.int("SELECT count(*) FROM contacts")))
    #expect(summary.elapsedSeconds >= 0)
  }

  /// `rinjobs-dev seed --add-users` (issue 39's sign-ups).
  static func signUps(_ fixture: SeedFixture, _ count: Int, at: Int64) throws -> SeedSummary {
    try Seeder.addSignUps(
      into: fixture.storage, options: SeedOptions(users: count, seed: 7, now: UTCInstant(seconds: at)))
  }

  @Test("sign-ups appended with the same options give identical content")
  func signUpsAreDeterministic() throws {
    let a = try SeedFixture(users: 40)
    let b = try SeedFixture(users: 40)
    let at = SeedFixture.now + SeedFixture.day / 2
    _ = try Self.signUps(a, 5, at: at)
    _ = try Self.signUps(b, 5, at: at)
    #expect(try a.digest() == b.digest())
  }

  @Test("sign-ups get the ids after the largest, full books, and are live and new")
  func signUpsFollowTheLargestIDs() throws {
    let fixture = try SeedFixture(users: 40)
    let contactsBefore = try fixture.int("SELECT max(id) FROM contacts")
    let at = SeedFixture.now + SeedFixture.day / 2
    let summary = try Self.signUps(fixture, 6, at: at)
    #expect(summary.rows["users"] == 46)
    #expect(try fixture.int("SELECT min(id) FROM users WHERE id > 40") == 41)
    let window = Int(at) - 8 * 3_600
    #expect(
      try fixture.int(
        "SELECT count(*) FROM users WHERE id > 40 AND deleted_at IS NULL AND created_at BETWEEN ? AND ?",
        [window, at]) == 6)
    // Their contacts come after every existing one, and most sign-ups have a book.
    #expect(try fixture.int("SELECT min(id) FROM contacts WHERE user_id > 40") == contactsBefore + 1)
    #expect(try fixture.int("SELECT count(DISTINCT user_id) FROM contacts WHERE user_id > 40") >= 5)
    #expect(try fixture.int("SELECT count(*) FROM circles WHERE user_id > 40 AND kind = 'mandatory'") >= 6)
    #expect((1...6).contains(try fixture.int("SELECT count(*) FROM user_state WHERE user_id > 40")))
    // A second day's sign-ups follow the first's.
    _ = try Self.signUps(fixture, 2, at: at + SeedFixture.day)
    #expect(try fixture.int("SELECT max(id) FROM users") == 48)
  }

  @Test("sign-ups into an empty database throw")
  func signUpsNeedASeededDatabase() throws {
    let fixture = try SeedFixture(users: nil)
    #expect(throws: SeedError.self) { try Self.signUps(fixture, 3, at: SeedFixture.now) }
  }
}
