import GRDB
import RinDomain
import RinTestSupport
import Testing

@testable import RinJobs
@testable import RinStorage

/// The lookup cache by a binary key (issue 53): a cache of the earlier format converted by the
/// migration with the same key words the job computes, a match taken only with its check
/// words, and history-retention's sweep deleting the expired rows of its slice only.
@Suite("The lookup cache by a binary key", .onItsOwnThread)
struct LookupCacheTests {
  static let migration = "key the lookup cache by a binary digest and keep no response for a no-match"
  static let ada = "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72"
  static let bob = "06c02db8e15d9dec36449aeda2a089dea81fa8125d8198f63b9f53626acef466"

  @Test func theKeyWordsAreTheBigEndianWordsOfTheProvidersDigest() {
    // python3: struct.unpack('>4q', hashlib.sha256(b'acme\n' + ada).digest())
    let key = LookupCacheKey(provider: "acme", key: Self.ada)
    #expect(key.high == 2_066_417_486_036_418_767 && key.low == 5_439_133_713_555_524_493)
    #expect(key.checkHigh == -6_698_835_990_693_559_583 && key.checkLow == 3_347_086_929_657_725_812)
    #expect(LookupCacheKey(provider: "other", key: Self.ada).rowKey != key.rowKey)
  }

  @Test(arguments: Backend.available) func anEarlierCacheIsConvertedWithTheJobsKeys(backend: Backend) throws {
    let db = try TestDatabase(backend)
    // As a database one release behind: the cache in its earlier format, one match, one no-match.
    try db.execute("DROP TABLE enrichment_lookups")
    try db.execute(
      """
      CREATE TABLE enrichment_lookups (
        provider TEXT NOT NULL, lookup_key TEXT NOT NULL, status TEXT NOT NULL, response TEXT,
        fetched_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, PRIMARY KEY (provider, lookup_key))
      """)
    try db.execute(
      """
      INSERT INTO enrichment_lookups VALUES ('acme', ?, 'match', '{"likelihood":8}', 100, 900),
        ('acme', ?, 'no_match', NULL, 200, 800)
      """, [Self.ada, Self.bob])
    let table = backend == .postgres ? "rin_migrations" : "grdb_migrations"
    try db.execute("DELETE FROM \(table) WHERE identifier = ?", [Self.migration])

    let migrated = try Storage.open(url: db.path, options: .init(buildsServiceIndexes: true))
    let cached = try migrated.read {
      try EnrichmentQueries(tx: $0).lookups(provider: "acme", keys: [Self.ada, Self.bob])
    }
    #expect(
      cached == [
        Self.ada: LookupRow(
          key: Self.ada, status: .match, response: #"{"likelihood":8}"#, fetchedAt: 100, expiresAt: 900),
        Self.bob: LookupRow(key: Self.bob, status: .noMatch, response: nil, fetchedAt: 0, expiresAt: 800),
      ])
    #expect(
      try migrated.read { try EnrichmentQueries(tx: $0).lookups(provider: "other", keys: [Self.ada]) }.isEmpty
    )
    #expect(
      try db.int("SELECT count(*) FROM enrichment_lookups WHERE response IS NULL AND fetched_at IS NULL") == 1
    )
  }

  @Test(arguments: Backend.available) func aMatchWhoseCheckWordsDifferIsNotTaken(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let match = LookupRow(key: Self.ada, status: .match, response: "{}", fetchedAt: 1, expiresAt: 9)
    try db.storage.write { try EnrichmentQueries(tx: $0).putLookup(match, provider: "acme", isNew: true) }
    #expect(
      try db.storage.read { try EnrichmentQueries(tx: $0).lookups(provider: "acme", keys: [Self.ada]) } == [
        Self.ada: match
      ])
    // Another key's answer under the same 128 bits: its check words are not this key's.
    try db.execute("UPDATE enrichment_lookups SET check_low = check_low + 1")
    #expect(
      try db.storage.read { try EnrichmentQueries(tx: $0).lookups(provider: "acme", keys: [Self.ada]) }
        .isEmpty)
    #expect(
      try db.storage.read { try EnrichmentQueries(tx: $0).lookupExpiries(provider: "acme", keys: [Self.ada]) }
        == [
          Self.ada: 9
        ])
  }

  @Test(arguments: Backend.available) func theSweepDeletesTheExpiredRowsOfItsRangeOnly(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend)
    let range: ClosedRange<Int64> = -1_000...1_000
    // Rows at both ends of the range and just outside it, expired or not.
    let highs: [Int64] = [-1_000, -1_000, 1_000, -1_001, 1_001]
    for (index, high) in highs.enumerated() {
      try db.execute(
        "INSERT INTO enrichment_lookups (key_high, key_low, expires_at) VALUES (?, ?, ?)",
        [high, Int64(index) - 1, index == 1 ? 5_000 : 1_000])
    }
    var start: LookupCacheKey.RowKey? = LookupCacheKey.RowKey(high: range.lowerBound, low: .min)
    var deleted = 0
    var windows = 0
    while let from = start {
      let window = try db.storage.write {
        try HistoryRetentionQueries(tx: $0).deleteExpiredLookups(
          keyHigh: range, from: from, expiredAt: 2_000, limit: 1)
      }
      deleted += window.deleted
      windows += 1
      start = window.next
    }
    #expect(deleted == 2 && windows == 4, "a window of one row each, and the short last one")
    #expect(
      try db.strings("SELECT key_low || '' FROM enrichment_lookups ORDER BY key_low") == ["0", "2", "3"],
      "the unexpired row in range and the rows outside it stay")
  }

  @Test func theSweepGoesRoundTheKeysOnceACycleHoweverOftenItRuns() {
    let start = UTCInstant(seconds: 1_800_000_000)
    #expect(
      LookupCacheSweep.ranges(sweptUntil: nil, now: start).isEmpty, "the first run marks where it starts")
    #expect(
      LookupCacheSweep.ranges(sweptUntil: start, now: UTCInstant(seconds: start.seconds - 60)).isEmpty,
      "a clock gone back reads nothing")
    let cycle = LookupCacheSweep.cycleSeconds
    #expect(
      LookupCacheSweep.ranges(sweptUntil: start, now: UTCInstant(seconds: start.seconds + cycle)) == [
        Int64.min...Int64.max
      ])
    for step: Int64 in [3_600, 86_400, 5 * 86_400 + 17] {
      // Consecutive runs: their ranges tile the key space once over a cycle, without overlap.
      var ranges: [ClosedRange<Int64>] = []
      var at = start
      while at.seconds < start.seconds + cycle {
        let next = UTCInstant(seconds: min(at.seconds + step, start.seconds + cycle))
        ranges += LookupCacheSweep.ranges(sweptUntil: at, now: next)
        at = next
      }
      let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
      #expect(
        sorted.first?.lowerBound == .min && sorted.last?.upperBound == .max, "every \(step) s: all keys")
      #expect(
        zip(sorted, sorted.dropFirst()).allSatisfy { $0.upperBound &+ 1 == $1.lowerBound },
        "every \(step) s: once")
    }
  }
}

/// `provider_key_claims`, which every run fills and empties: emptied at the end of a run on
/// PostgreSQL when nobody holds it, so its index does not keep the night's keys (issue 53).
@Suite("A table a run fills and empties", .onItsOwnThread)
struct EmptyIfIdleTests {
  @Test(arguments: Backend.available) func theClaimsTableIsTruncatedOnlyWhenEmptyAndNobodyHoldsIt(
    backend: Backend
  ) throws {
    let db = try TestDatabase(backend)
    guard backend == .postgres else {
      #expect(try db.storage.emptyIfIdle(.providerKeyClaims) == .leftAsIs, "SQLite reuses the freed pages")
      return
    }
    // Sizes from the server itself: `TestDatabase`'s reads go through a SQLite snapshot.
    let server = try TestPostgresConnection(url: db.path)
    let bytes = { (relation: String) throws -> Int64 in
      try server.execute("SELECT pg_relation_size('\(relation)')::bigint").first?.first.flatMap(
        Int64.fromDatabaseValue)
        ?? -1
    }
    try db.execute(
      """
      INSERT INTO provider_key_claims (lookup_key, provider, run_id, claimed_until)
      SELECT md5(n::text), 'acme', 1, 0 FROM generate_series(1, 5000) n
      """)
    try db.execute("DELETE FROM provider_key_claims")
    let bloated = try bytes("provider_key_claims_pkey")
    #expect(bloated > 8_192 * 10, "the emptied index keeps its pages")

    // A claim left: nothing happens.
    try db.execute("INSERT INTO provider_key_claims VALUES ('k', 'acme', 2, 0)")
    #expect(try db.storage.emptyIfIdle(.providerKeyClaims) == .leftAsIs)
    #expect(try server.execute("SELECT count(*) FROM provider_key_claims").first?.first == 1.databaseValue)
    try db.execute("DELETE FROM provider_key_claims")

    // Another worker's open transaction holds the table: no wait, nothing happens.
    let worker = try TestPostgresConnection(url: db.path)
    _ = try worker.execute("BEGIN")
    _ = try worker.execute("SELECT count(*) FROM provider_key_claims")
    let clock = ContinuousClock()
    let started = clock.now
    #expect(try db.storage.emptyIfIdle(.providerKeyClaims) == .leftAsIs)
    #expect(clock.now - started < .seconds(5), "LOCK … NOWAIT gives up at once")
    _ = try worker.execute("COMMIT")

    #expect(try db.storage.emptyIfIdle(.providerKeyClaims) == .emptied)
    #expect(try bytes("provider_key_claims_pkey") < bloated, "its index starts again from its first page")
    #expect(try bytes("provider_key_claims") == 0)
  }
}
