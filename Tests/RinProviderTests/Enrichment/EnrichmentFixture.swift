import Foundation
import GRDB
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinProviderClient
import RinProviderStub
import RinRuntime
import RinStorage
import RinTestSupport

/// A small database covering every rule of docs/CONTRACT.md §3.3, a provider stub on loopback that
/// answers by email, and the expected outcome, written out by hand. Numbers go through the real
/// normalizer: contact 10's national form parses in its owner's region (US), contact 20's does
/// not in its owner's (GB).
final class EnrichmentFixture: Sendable {
  static let apiKeyVariable = "RIN_TEST_ENRICH_KEY"
  static let apiKey = "sk-test-4f9c2a77d1e0"
  static let provider = "acme"

  let db: TestDatabase
  let stub: ProviderStub

  private init(db: TestDatabase, stub: ProviderStub) {
    self.db = db
    self.stub = stub
  }

  static func make(_ backend: Backend) async throws -> EnrichmentFixture {
    let db = try await offPool { try TestDatabase(backend) }
    try db.execute(
      """
      INSERT INTO users (id, phone_e164, phone_verified, region, created_at, deleted_at) VALUES
        (1, '+14155550001', 1, 'US', 0, NULL), (2, '+14155550002', 1, 'GB', 0, NULL),
        (3, '+14155550003', 0, 'US', 0, NULL), (4, '+14155550004', 1, 'US', 0, 100),
        (5, '+14155550005', 1, 'US', 0, NULL), (6, '+14155550005', 1, 'US', 0, NULL);
      INSERT INTO contacts (id, user_id, given_name, edited_fields, created_at, deleted_at) VALUES
        (10, 1, 'Ada', NULL, 0, NULL), (11, 1, 'Bob', NULL, 0, NULL), (12, 1, 'Me', NULL, 0, NULL),
        (13, 1, 'Carol', NULL, 0, NULL), (14, 1, 'Dan', ' Title ,', 0, NULL), (15, 1, 'Ed', NULL, 0, 50),
        (16, 1, 'Fay', 'company,title,birthday', 0, NULL), (17, 1, 'Odd', NULL, 0, NULL),
        (20, 2, 'Ada again', NULL, 0, NULL), (21, 5, 'Gus', NULL, 0, NULL), (40, 4, 'Hal', NULL, 0, NULL);
      INSERT INTO contact_phones (contact_id, raw, label) VALUES
        (10, '(415) 555-0002', 'mobile'), (11, '+14155550003', 'mobile'), (12, '+1 (415) 555-0001', 'mobile'),
        (13, '+14155550004', 'mobile'), (14, '+1-415-555-0005', 'work'), (17, 'call me', 'mobile'),
        (20, '+14155550001', 'mobile'), (20, '+1 415 555 0001', 'home'), (20, '(415) 555-0003', 'work'), (40, '+14155550009', 'mobile');
      INSERT INTO contact_emails (contact_id, address, label) VALUES
        (10, ' Ada@Example.com ', 'work'), (11, 'bob@example.org', 'home'), (13, 'carol@example.net', 'work'),
        (14, 'dan@example.com', 'work'), (15, 'ed@example.com', 'home'), (16, 'fay@example.com', 'home'),
        (17, 'no-at-sign', 'home'), (20, 'ADA@example.com', 'home'), (21, 'gus@example.com', 'home'),
        (40, 'hal@example.com', 'home');
      """)
    let stub = try await ProviderStub.start(apiKey: apiKey, fallback: .notFound)
    let fixture = EnrichmentFixture(db: db, stub: stub)
    fixture.scriptAnswers()
    return fixture
  }

  func scriptAnswers() {
    stub.setAnswer(
      .match(likelihood: 8, person: StubPerson(company: "Acme", title: "CTO", birthday: "1980-02-29")),
      forLookedUp: "ada@example.com")
    stub.setAnswer(.notFound, forLookedUp: "bob@example.org")
    stub.setAnswer(
      .match(likelihood: 4, person: StubPerson(company: "Initech")), forLookedUp: "carol@example.net")
    stub.setAnswer(
      .match(likelihood: 9, person: StubPerson(company: "Globex", title: "Engineer")),
      forLookedUp: "dan@example.com")
    stub.setAnswer(
      .match(likelihood: 7, person: StubPerson(company: " Hooli ", birthday: "--07-14")),
      forLookedUp: "gus@example.com")
  }

  func stop() async { await stub.stop() }

  /// Makes every insert of an enrichment of `contact` fail, as a crash at that point would.
  func failEnrichmentInserts(ofContact contact: Int64) throws {
    switch db.backend {
    case .sqlite:
      try db.execute(
        """
        CREATE TRIGGER crash BEFORE INSERT ON contact_enrichments WHEN NEW.contact_id = \(contact)
        BEGIN SELECT RAISE(ABORT, 'simulated crash'); END
        """)
    case .postgres:
      try db.execute(
        """
        CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'simulated crash'; END $$;
        CREATE TRIGGER crash BEFORE INSERT ON contact_enrichments FOR EACH ROW
          WHEN (NEW.contact_id = \(contact)) EXECUTE FUNCTION crash();
        """)
    }
  }

  func stopFailingEnrichmentInserts() throws {
    try db.execute(db.backend == .sqlite ? "DROP TRIGGER crash" : "DROP TRIGGER crash ON contact_enrichments")
  }

  /// The ten keys the fixture's contacts give: five addresses and five numbers (contacts 12 and
  /// 20 share one); deleted contacts, deleted users, fully edited and malformed ones give none.
  static let lookedUp: Set<String> = [
    "ada@example.com", "bob@example.org", "carol@example.net", "dan@example.com", "gus@example.com",
    "+14155550001", "+14155550002", "+14155550003", "+14155550004", "+14155550005",
  ]

  /// `contact|field|source|value|confidence`.
  static let expectedEnrichments: Set<String> = [
    "10|rin_user|rin_network|2|1.0", "10|company|acme|Acme|0.8", "10|title|acme|CTO|0.8",
    "10|birthday|acme|1980-02-29|0.8", "14|company|acme|Globex|0.9", "20|rin_user|rin_network|1|1.0",
    "20|company|acme|Acme|0.8", "20|title|acme|CTO|0.8", "20|birthday|acme|1980-02-29|0.8",
    "21|company|acme|Hooli|0.7", "21|birthday|acme|--07-14|0.7",
  ]

  /// `user|deep_link`.
  static let expectedOutbox: Set<String> = [
    "1|rin://home?section=enrichment", "2|rin://contacts/20", "5|rin://contacts/21",
  ]

  static let expectedRinUsers: [Int64: Int64] = [10: 2, 20: 1]

  func config(
    batchSize: Int = 3, requestsPerMinute: Int = 60_000, timeout: Duration = .seconds(5),
    maxRetries: Int = 2, concurrency: Int = 2, provider: Bool = true
  ) -> RinConfig {
    var config = RinConfig.defaults(storageURL: db.path)
    guard provider else { return config }
    config.jobs[EnrichmentFetchJob.self].provider = EnrichmentProviderSettings(
      name: Self.provider, url: stub.baseURL, apiKeyEnv: Self.apiKeyVariable, batchSize: batchSize,
      requestsPerMinute: requestsPerMinute, timeout: timeout, maxRetries: maxRetries, concurrency: concurrency
    )
    return config
  }

  static var job: EnrichmentFetchJob {
    EnrichmentFetchJob(
      tuning: ProviderTuning(backoff: Backoff(base: 0.01, cap: 0.05, random: { 0.5 })))
  }

  func run(
    _ options: RunOptions = TestClock.options(), config: RinConfig? = nil,
    environment: [String: String] = [EnrichmentFixture.apiKeyVariable: EnrichmentFixture.apiKey],
    logs: CapturedLogs? = nil, stop: StopSignal = StopSignal(), wallClock: WallClock = .system
  ) async -> RunSummary {
    var logger = logs?.logger() ?? Logger(label: "test")
    if logs == nil { logger.logLevel = .critical }
    let runner = JobRunner(
      config: config ?? self.config(), storage: db.storage, logger: logger,
      environment: RuntimeEnvironment(variables: environment, wallClock: wallClock), stop: stop)
    return await runner.run(Self.job, options: options)
  }

  // MARK: reading the outcome independently

  func enrichments() throws -> Set<String> {
    try Set(
      db.strings(
        "SELECT contact_id || '|' || field || '|' || source || '|' || value || '|' || printf('%.1f', confidence) FROM contact_enrichments"
      ))
  }

  func outbox() throws -> Set<String> {
    try Set(
      db.strings(
        "SELECT user_id || '|' || deep_link FROM notification_outbox WHERE kind = 'contact_enrichment'"))
  }

  func rinUsers() throws -> [Int64: Int64] {
    try db.read { d in
      var links: [Int64: Int64] = [:]
      for row in try Row.fetchAll(
        d, sql: "SELECT id, rin_user_id FROM contacts WHERE rin_user_id IS NOT NULL")
      {
        links[row[0]] = row[1]
      }
      return links
    }
  }

  /// `status` per looked-up email or number, through the stub's record of what carried which key.
  func cachedStatuses() throws -> [String: String] {
    let keyToValue = valuesAsked()
    let keyOfRow = Dictionary(
      keyToValue.keys.map { (LookupCacheKey(provider: "acme", key: $0).rowKey, $0) },
      uniquingKeysWith: { first, _ in first })
    return try db.read { d in
      var statuses: [String: String] = [:]
      for row in try Row.fetchAll(
        d,
        sql:
          "SELECT key_high, key_low, CASE WHEN response IS NULL THEN 'no_match' ELSE 'match' END FROM enrichment_lookups"
      ) {
        let rowKey = LookupCacheKey.RowKey(high: row[0], low: row[1])
        statuses[keyOfRow[rowKey].flatMap { keyToValue[$0] } ?? "unknown key \(rowKey)"] = row[2]
      }
      return statuses
    }
  }

  /// Each cached answer's expiry and fetch time by the value it was asked for, with the expiry
  /// a first answer to its key is given (`RefreshPhase.firstExpiry`, the provider's default
  /// TTLs) asked at `askedAt`.
  func cachedExpiries(askedAt: Int64) throws -> [String: (
    expiresAt: Int64, fetchedAt: Int64?, expected: Int64
  )] {
    let phases = RefreshPhase(shortestTTL: .seconds(30 * 86_400))
    let rows = try db.read {
      try Row.fetchAll(
        $0, sql: "SELECT key_high, key_low, expires_at, fetched_at, response IS NULL FROM enrichment_lookups")
    }
    let rowsByKey = Dictionary(
      rows.map { (LookupCacheKey.RowKey(high: $0[0], low: $0[1]), $0) },
      uniquingKeysWith: { first, _ in first })
    var expiries: [String: (expiresAt: Int64, fetchedAt: Int64?, expected: Int64)] = [:]
    for (key, value) in valuesAsked() {
      guard let row = rowsByKey[LookupCacheKey(provider: "acme", key: key).rowKey] else { continue }
      let ttl: Duration = .seconds((row[4] as Bool) ? 30 * 86_400 : 90 * 86_400)
      expiries[value] = (
        row[2], row[3], phases.firstExpiry(of: key, askedAt: UTCInstant(seconds: askedAt), ttl: ttl).seconds
      )
    }
    return expiries
  }

  /// The value (an address or a number) each key the stub was sent stands for.
  private func valuesAsked() -> [String: String] {
    Dictionary(
      stub.records.flatMap { $0.items }.map { ($0["id"] ?? "", $0["email"] ?? $0["phone"] ?? "") },
      uniquingKeysWith: { first, _ in first })
  }

  /// Every key the stub answered was never sent again afterwards (in any later request).
  func noAnsweredKeyWasRequestedAgain() -> Bool {
    var answered: Set<String> = []
    for record in stub.records {
      if !answered.isDisjoint(with: record.ids) { return false }
      answered.formUnion(record.answeredIDs)
    }
    return stub.answersPerKey.values.allSatisfy { $0 == 1 }
  }

  /// The emails and numbers the stub was asked about.
  var valuesSent: Set<String> {
    Set(stub.records.flatMap { $0.items }.compactMap { $0["email"] ?? $0["phone"] })
  }
}
