import RinDomain
import RinStorage
import RinTestSupport
import Testing

@testable import RinJobs

/// A batch of owners that run densely is read as one index range (`OwnerSet`): the rows of the
/// owners in between that the batch does not hold (deleted, outside the selection) are read too
/// and must not reach the job.
@Suite("owner range reads", .onItsOwnThread)
struct OwnerRangeReadTests {
  /// Users 1…40, each with a contact, a pending merge suggestion, a badge row and an
  /// examination; the batch leaves out 10, 20 and 30.
  static func database(_ backend: Backend) throws -> (TestDatabase, batch: [UserID]) {
    let db = try TestDatabase(backend)
    for user in 1...40 {
      try db.execute("INSERT INTO users (id, region, created_at) VALUES (?, 'GB', 0)", [user])
      try db.execute("INSERT INTO contacts (id, user_id, created_at) VALUES (?, ?, 0)", [user * 100, user])
      try db.execute(
        """
        INSERT INTO merge_suggestions (id, user_id, contact_a, contact_b, confidence, status, created_at)
        VALUES (?, ?, 1, 2, 0.9, 'pending', 0)
        """, [user, user])
      try db.execute(
        "INSERT INTO badge_counts (user_id, home, circles, score, profile, computed_at) VALUES (?, 1, 0, 0, 0, 0)",
        [user])
      try db.execute(
        "INSERT INTO owner_examinations (job, user_id, fingerprint, examined_at) VALUES ('enrichment-fetch', ?, 7, 0)",
        [user])
    }
    return (db, (1...40).filter { $0 % 10 != 0 }.map { UserID(rawValue: Int64($0)) })
  }

  @Test(arguments: Backend.available) func aRangeReadKeepsOnlyTheBatchsOwners(backend: Backend) throws {
    let (db, batch) = try Self.database(backend)
    let asked = Set(batch)
    let found: [Set<UserID>] = try db.storage.read { tx in
      [
        Set(try BadgeRecountQueries(tx: tx).storedBadgeCounts(for: batch).keys),
        Set(try tx.ownerExaminations(job: .enrichmentFetch, of: batch).keys),
        Set(try DailyScoreQueries(tx: tx).pendingMergeConfidences(of: batch, createdBefore: 1).keys),
        Set(try tx.userRegions(of: batch).keys),
        Set(try BadgeRecountQueries(tx: tx).badgeInputs(for: batch).keys),
      ]
    }
    for (index, owners) in found.enumerated() { #expect(owners == asked, "read \(index)") }
  }

  /// `rowsOf` a part of the owners: the others' contacts stay unsummed, as with a list.
  @Test(arguments: Backend.available) func stampsSumOnlyTheOwnersAskedFor(backend: Backend) throws {
    let (db, batch) = try Self.database(backend)
    let stamps = try db.storage.read { tx in
      try tx.ownerStamps(of: (1...40).map { UserID(rawValue: Int64($0)) }, rowsOf: batch, circles: false)
    }
    #expect(stamps[10]?.contacts == [])
    #expect(stamps[11]?.contacts.first == 1)
    #expect(stamps.values.filter { !$0.contacts.isEmpty }.count == batch.count)
  }
}
