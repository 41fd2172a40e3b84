import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

/// issue 39: the periodic pass over the contact-id range (`PeriodicContactPass`) divides among
/// shards by block, hands the owners it finds to the shard they belong to, forgets the digests
/// of contacts that are gone, and takes an upgraded database's digests over its first period
/// without examining every owner (docs/JOBS.md "The periodic pass").
@Suite("the periodic pass over the contact-id range", .onItsOwnThread)
struct PeriodicContactPassTests {
  static let day: Int64 = 86_400
  static let period: Int64 = 3

  static func config(_ db: TestDatabase) -> RinConfig {
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[CirclePatternsJob.self].fullEvery = .seconds(Self.period * Self.day)
    return config
  }

  static func night(
    _ db: TestDatabase, _ night: Int64, shard: (index: Int, count: Int)? = nil, full: Bool = false
  ) async -> RunSummary {
    var options = TestClock.options(now: TestClock.now + night * Self.day, full: full)
    if let shard { options.shard = .fixed(.part(index: shard.index, count: shard.count)) }
    let run = await db.run(CirclePatternsJob(), options, config: Self.config(db))
    #expect(run.status == .succeeded, "\(run.error ?? "")")
    return run
  }

  /// Three shards, each run on its own, read every contact once over the period between them;
  /// the owners a shard's pass finds for another shard are examined by that shard, the same
  /// night or the next; every unstamped edit is caught, and a full pass then writes nothing.
  @Test(arguments: Backend.available) func shardsDivideThePassAndHandOwnersOn(backend: Backend) async throws {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    _ = await Self.night(db, 0)
    try UnstampedCorrectionTests.editWithoutStamps(db)
    // Contacts deleted outright (an account's removal): their digests go with the pass.
    try db.execute(
      "DELETE FROM contact_phones WHERE contact_id IN (SELECT id FROM contacts WHERE user_id = 4)")
    try db.execute(
      "DELETE FROM contact_emails WHERE contact_id IN (SELECT id FROM contacts WHERE user_id = 4)")
    try db.execute("DELETE FROM contacts WHERE user_id = 4")
    let contacts = try db.int("SELECT count(*) FROM contacts")

    var passed = 0
    var corrections = 0
    for night in Int64(1)...(Self.period + 1) {
      for index in 0..<3 {
        let run = await Self.night(db, night, shard: (index, 3))
        #expect((run.counts.read["users examined (changed)"] ?? 0) <= 1, "only user 4's stamps moved")
        if night <= Self.period { passed += run.counts.read["contacts passed"] ?? 0 }
        corrections += run.counts.unstampedCorrections ?? 0
      }
    }
    #expect(passed == contacts, "the shards read every contact once over the period")
    #expect(corrections > 0)
    #expect(try db.int("SELECT count(*) FROM periodic_pass_owners") == 0, "every owner found was examined")
    #expect(
      try db.int(
        "SELECT count(*) FROM contact_states d WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = d.contact_id)"
      ) == 0, "no digest left of a deleted contact")
    let full = await Self.night(db, Self.period + 2, full: true)
    #expect(full.changes.tables["circle_suggestions"] == nil, "\(full.changes.tables)")
  }

  /// enrichment-fetch, run first each night, passes for circle-patterns too when their periods
  /// agree: circle-patterns reads no block itself, yet the owners the pass found for it are
  /// examined that night and their unstamped edits corrected; a full pass then writes nothing.
  /// With another period, circle-patterns passes on its own.
  @Test(arguments: Backend.available) func theFirstJobOfTheNightPassesForBoth(backend: Backend) async throws {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    var config = Self.config(db)
    config.jobs[EnrichmentFetchJob.self].fullEvery = config.jobs[CirclePatternsJob.self].fullEvery
    func night(_ night: Int64, _ config: RinConfig) async -> (enrichment: RunSummary, circles: RunSummary) {
      let options = TestClock.options(now: TestClock.now + night * Self.day)
      let enrichment = await db.run(EnrichmentFetchJob(), options, config: config)
      let circles = await db.run(CirclePatternsJob(), options, config: config)
      #expect(enrichment.status == .succeeded, "\(enrichment.error ?? "")")
      #expect(circles.status == .succeeded, "\(circles.error ?? "")")
      return (enrichment, circles)
    }
    _ = await night(0, config)
    _ = await night(1, config)
    try UnstampedCorrectionTests.editWithoutStamps(db)
    let contacts = try db.int("SELECT count(*) FROM contacts")
    var (passed, foundForCircles, corrections) = (0, 0, 0)
    for n in Int64(2)...(Self.period + 1) {
      let (enrichment, circles) = await night(n, config)
      passed += enrichment.counts.read["contacts passed"] ?? 0
      foundForCircles += enrichment.counts.read["users found by the pass for circle-patterns"] ?? 0
      #expect(
        circles.counts.read["contacts passed"] == nil, "passed by enrichment-fetch: \(circles.counts.read)")
      corrections += circles.counts.unstampedCorrections ?? 0
    }
    #expect(passed == contacts, "enrichment-fetch read every contact once over the period")
    #expect(foundForCircles > 0)
    #expect(corrections > 0, "circle-patterns examined the owners found for it")
    #expect(try db.int("SELECT count(*) FROM periodic_pass_owners") == 0, "every owner found was examined")
    let full = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + (Self.period + 2) * Self.day, full: true),
      config: config)
    #expect(full.changes.tables["circle_suggestions"] == nil, "\(full.changes.tables)")

    config.jobs[EnrichmentFetchJob.self].fullEvery = .seconds(2 * Self.period * Self.day)
    var circlesPassed = 0
    for n in (Self.period + 3)...(2 * Self.period + 3) {
      circlesPassed += await night(n, config).circles.counts.read["contacts passed"] ?? 0
    }
    #expect(circlesPassed > 0, "with another period, circle-patterns passes on its own")
  }

  /// A shard without a pass of its own starts from the pass before the shard count changed,
  /// never from a sibling's: the first shard to run tonight would stand for the others, and
  /// they would skip tonight's blocks (seen at M: two shards read 20 blocks of a night's 46).
  @Test(arguments: Backend.available) func aNewShardStartsFromThePassBeforeTheShardsChanged(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend)
    let (before, tonight) = (UTCInstant(seconds: 1_000), UTCInstant(seconds: 2_000))
    try db.storage.write { tx in
      try tx.savePeriodicPass(.init(passedAt: before, startedAt: 10), job: .circlePatterns, scope: "all")
      try tx.savePeriodicPass(.init(passedAt: tonight, startedAt: 10), job: .circlePatterns, scope: "0/2")
      try tx.savePeriodicPass(.init(passedAt: 3_000, startedAt: 5), job: .enrichmentFetch, scope: "all")
    }
    let state = { (scope: String) in
      try db.storage.read { try $0.periodicPassState(job: .circlePatterns, scope: scope) }
    }
    #expect(try state("1/2") == .init(passedAt: before, startedAt: 10), "not its sibling 0/2's")
    #expect(try state("0/2") == .init(passedAt: tonight, startedAt: 10), "its own")
    #expect(try state("2/3") == .init(passedAt: tonight, startedAt: 10), "the latest of another count")
    #expect(try db.storage.read { try $0.periodicPassState(job: .badgeRecount, scope: "all") } == nil)
  }

  /// A database examined by a release without digests: the first period gives every contact a
  /// digest and examines nobody; from then on an unstamped edit is caught as usual.
  @Test(arguments: Backend.available) func anUpgradedDatabaseGetsItsDigestsOverAPeriod(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    _ = await Self.night(db, 0)
    try db.execute("UPDATE contact_states SET circles_digest = NULL")
    try db.execute("DELETE FROM periodic_passes")
    for night in Int64(1)...(Self.period + 1) {
      let run = await Self.night(db, night)
      #expect((run.counts.read["users examined (periodic)"] ?? 0) == 0, "\(run.counts.read)")
    }
    let contacts = try db.int(
      """
      SELECT count(*) FROM contacts c JOIN users u ON u.id = c.user_id
      WHERE c.deleted_at IS NULL AND u.deleted_at IS NULL
      """)
    let digests = try db.int("SELECT count(*) FROM contact_states WHERE circles_digest IS NOT NULL")
    let ids = try db.strings("SELECT min(id) || ' ' || max(id) FROM contacts")
    #expect(
      digests == contacts,
      "every live contact of a live owner has a digest: \(digests) of \(contacts), ids \(ids)")

    try UnstampedCorrectionTests.editWithoutStamps(db)
    var corrections = 0
    for night in (Self.period + 2)...(2 * Self.period + 1) {
      corrections += await Self.night(db, night).counts.unstampedCorrections ?? 0
    }
    #expect(corrections > 0)
    let full = await Self.night(db, 2 * Self.period + 2, full: true)
    #expect(full.changes.tables["circle_suggestions"] == nil, "\(full.changes.tables)")
  }

  /// Contacts deleted outright with their numbers, addresses and memberships (the contract has
  /// them deleted softly): no stamp shows it, and the pass finds their owners by the digests left
  /// behind, within the period; a full pass then writes nothing.
  @Test(arguments: Backend.available) func contactsDeletedOutrightAreFoundByThePass(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    _ = await Self.night(db, 0)
    // A quiet night first: the seed stamps some rows within the hour before the first night,
    // which the second looks at again (`ChangeStamp.margin`).
    _ = await Self.night(db, 1)
    let before = try UnstampedCorrectionTests.suggestionsByOwner(db)
    let gone = "SELECT id FROM contacts WHERE user_id % 3 = 1 AND id % 2 = 1"
    for table in ["contact_phones", "contact_emails", "circle_members"] {
      try db.execute("DELETE FROM \(table) WHERE contact_id IN (\(gone))")
    }
    try db.execute("DELETE FROM contacts WHERE id IN (SELECT id FROM (\(gone)) AS g)")
    var corrections = 0
    for night in Int64(2)...(Self.period + 2) {
      let run = await Self.night(db, night)
      #expect((run.counts.read["users examined (changed)"] ?? 0) == 0, "no stamp moved")
      corrections += run.counts.unstampedCorrections ?? 0
    }
    let after = try UnstampedCorrectionTests.suggestionsByOwner(db)
    let corrected = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    #expect(!corrected.isEmpty, "the deletes change some owners' groups")
    #expect(corrections == corrected.count)
    let full = await Self.night(db, Self.period + 3, full: true)
    #expect(full.changes.tables["circle_suggestions"] == nil, "\(full.changes.tables)")
  }
}
