import Foundation
import GRDB
import Logging
import RinConfiguration
import RinJobs
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  @Suite("enrichment-fetch on a seeded database")
  struct EnrichmentSeededTests {
    static func config(_ db: TestDatabase, _ stub: ProviderStub) -> RinConfig {
      var config = RinConfig.defaults(storageURL: db.path)
      config.jobs[EnrichmentFetchJob.self].batchSize = 4
      config.jobs[EnrichmentFetchJob.self].provider = EnrichmentProviderSettings(
        name: "fake-people", url: stub.baseURL, apiKeyEnv: "SEEDED_KEY", batchSize: 100,
        requestsPerMinute: 100_000,
        concurrency: 4)
      return config
    }

    static func run(_ db: TestDatabase, _ stub: ProviderStub, _ options: RunOptions) async -> RunSummary {
      var logger = Logger(label: "test")
      logger.logLevel = .critical
      let runner = JobRunner(
        config: config(db, stub), storage: db.storage, logger: logger,
        environment: RuntimeEnvironment(variables: ["SEEDED_KEY": "seeded-secret"]))
      return await runner.run(EnrichmentFixture.job, options: options)
    }

    @Test(arguments: Backend.available) func aRunPaysForEachKeyOnceAndARerunChangesNothing(backend: Backend)
      async throws
    {
      let db = try await offPool { try TestDatabase(backend, seedUsers: 15, seed: 5) }
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: true)
      defer { Task { await stub.stop() } }

      let dry = await Self.run(db, stub, TestClock.options(dryRun: true))
      #expect(dry.status == .succeeded, "\(dry.error ?? "")")
      #expect(stub.requestCount == 0)
      let wouldBe = try #require(dry.details[EnrichmentFetchDetails.self].wouldBeLookups)
      #expect(wouldBe > 100)

      let summary = await Self.run(db, stub, TestClock.options())
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      #expect(
        stub.requestsPerKey.count == wouldBe, "the dry run announced exactly the keys the real run asked for")
      #expect(stub.requestsPerKey.values.allSatisfy { $0 == 1 })
      #expect(try db.int("SELECT count(*) FROM enrichment_lookups") == wouldBe)
      #expect(
        summary.counts.usersProcessed == (try db.int("SELECT count(*) FROM users WHERE deleted_at IS NULL")))

      // Independent checks, straight from the tables.
      #expect(
        try db.int(
          """
          SELECT count(*) FROM contact_enrichments x JOIN contacts c ON c.id = x.contact_id
          WHERE c.deleted_at IS NOT NULL
            OR c.user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL)
            OR instr(',' || lower(replace(coalesce(c.edited_fields, ''), ' ', '')) || ',', ',' || x.field || ',') > 0
          """) == 0, "no enrichment of a deleted contact or user, nor of an edited field")
      #expect(
        try db.int(
          "SELECT count(*) FROM contact_enrichments WHERE source = 'fake-people' AND (confidence < 0.6 OR confidence > 1)"
        )
          == 0, "min_likelihood 6")
      #expect(
        try db.int(
          """
          SELECT count(*) FROM contact_enrichments x JOIN contacts c ON c.id = x.contact_id
          LEFT JOIN users r ON r.id = CAST(x.value AS INTEGER)
          WHERE x.field = 'rin_user' AND (r.id IS NULL OR r.deleted_at IS NOT NULL OR r.phone_verified <> 1
            OR r.id = c.user_id OR c.rin_user_id IS NOT r.id)
          """) == 0, "a rin_user link points at another live, verified user, and rin_user_id agrees")
      #expect(try db.int("SELECT count(*) FROM contact_enrichments WHERE source = 'fake-people'") > 0)
      #expect(
        try db.int(
          """
          SELECT count(*) FROM (SELECT c.user_id FROM contact_enrichments x JOIN contacts c ON c.id = x.contact_id
            GROUP BY c.user_id)
          """)
          == (try db.int("SELECT count(*) FROM notification_outbox WHERE kind = 'contact_enrichment'")),
        "one notification per user with new enrichments")

      let before = try db.contentDigest()
      let again = await Self.run(db, stub, TestClock.options(now: TestClock.now + 600))
      #expect(again.status == .succeeded)
      #expect(stub.requestsPerKey.values.allSatisfy { $0 == 1 })
      #expect(try db.contentDigest() == before)
    }
  }
}
