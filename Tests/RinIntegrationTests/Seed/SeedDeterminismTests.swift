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
}
