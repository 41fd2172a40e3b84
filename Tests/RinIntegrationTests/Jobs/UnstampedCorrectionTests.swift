import Foundation
import RinConfiguration
import RinJobs
import RinReport
import RinRuntime
import RinTestSupport
import Testing

/// issue 39: a change the services made without a stamp (a phone edited, `updated_at` left
/// alone) is caught by the periodic pass within `full_every`, and each owner it corrects is
/// counted as an unstamped correction, so that an operator sees what the services failed to
/// stamp (docs/OPERATIONS.md "The periodic pass").
@Suite("the periodic pass catches and counts unstamped changes", .onItsOwnThread)
struct UnstampedCorrectionTests {
  static let day: Int64 = 86_400
  static let period: Int64 = 3

  /// The period's nights after the edit; returns their summaries.
  static func nights(_ job: any Job, _ db: TestDatabase, config: RinConfig) async -> [RunSummary] {
    var runs: [RunSummary] = []
    for night in Int64(1)...period {
      runs.append(await db.run(job, TestClock.options(now: TestClock.now + night * day), config: config))
    }
    return runs
  }

  static func corrections(_ runs: [RunSummary]) -> Int {
    runs.compactMap(\.counts.unstampedCorrections).reduce(0, +)
  }

  /// Phones, addresses and family names of three quarters of the owners' contacts moved into one
  /// area code, work domain and family, with no stamp: their circles' groups change, which only
  /// the periodic pass can see.
  @Test(arguments: Backend.available) func circlePatternsCountsWhatItsPassCorrected(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[CirclePatternsJob.self].fullEvery = .seconds(Self.period * Self.day)
    let first = await db.run(CirclePatternsJob(), TestClock.options(), config: config)
    #expect(first.status == .succeeded, "\(first.error ?? "")")
    #expect(first.counts.unstampedCorrections == 0, "a first night corrects nothing: every owner is new")
    let before = try Self.suggestionsByOwner(db)

    try Self.editWithoutStamps(db)
    let runs = await Self.nights(CirclePatternsJob(), db, config: config)
    for run in runs { #expect(run.status == .succeeded, "\(run.error ?? "")") }
    #expect(
      runs.allSatisfy { ($0.counts.read["users examined (changed)"] ?? 0) == 0 },
      "no stamp moved: nothing counts as changed")

    let after = try Self.suggestionsByOwner(db)
    let corrected = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    #expect(!corrected.isEmpty, "the edit changes some owners' groups")
    #expect(!corrected.contains { $0 % 4 == 0 }, "only edited owners change: \(corrected.sorted())")
    for kind in 1...3 {
      #expect(corrected.contains { $0 % 4 == kind }, "edits of kind \(kind) corrected: \(corrected.sorted())")
    }
    #expect(Self.corrections(runs) == corrected.count, "each corrected owner counted once")
    // The count reaches the summary, the ledger and the metrics.
    let night = try #require(
      runs.max { ($0.counts.unstampedCorrections ?? 0) < ($1.counts.unstampedCorrections ?? 0) })
    let count = try #require(night.counts.unstampedCorrections)
    #expect(
      SummaryText.render(night).contains(
        "unstamped corrections (owners the periodic pass changed, no stamp): \(count)"))
    let metrics = MetricsFile.render([try MetricsFile.facts(for: night, storage: db.storage)])
    #expect(
      metrics.contains(#"rinjobs_unstamped_corrections{job="circle-patterns"} \#(count)"#), "\(metrics)")
    let ledger = try #require(
      try db.strings("SELECT counts FROM job_runs WHERE id = ?", [night.runID?.rawValue]).first)
    #expect(ledger.contains("\"unstamped_corrections\":\(count)"), "\(ledger)")

    // Caught within one period: a full pass now finds nothing left to write.
    let full = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + (Self.period + 1) * Self.day, full: true),
      config: config)
    #expect(full.changes.tables["circle_suggestions"] == nil, "\(full.changes.tables)")
    #expect(full.counts.unstampedCorrections == 0, "a forced pass is not the periodic pass")
  }

  /// Numbers of some contacts set, with no stamp, to a verified Rin user's number: the contacts
  /// are linked to that user only when their owner's periodic pass comes round.
  @Test(arguments: Backend.available) func enrichmentFetchCountsWhatItsPassCorrected(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 48, seed: 29)
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[EnrichmentFetchJob.self].fullEvery = .seconds(Self.period * Self.day)
    let first = await db.run(EnrichmentFetchJob(), TestClock.options(), config: config)
    #expect(first.status == .succeeded, "\(first.error ?? "")")
    #expect(first.counts.unstampedCorrections == 0)

    let verified = try db.strings(
      "SELECT phone_e164 FROM users WHERE phone_verified = 1 AND deleted_at IS NULL AND phone_e164 IS NOT NULL ORDER BY id"
    )
    #expect(verified.count > 3)
    let target = verified[verified.count / 2]
    // One contact of each owner whose id is 2 mod 5, not the target's own owner.
    try db.execute(
      """
      UPDATE contact_phones SET raw = ? WHERE contact_id IN (
        SELECT min(c.id) FROM contacts c JOIN contact_phones p ON p.contact_id = c.id
        WHERE c.user_id % 5 = 2 AND c.deleted_at IS NULL AND c.rin_user_id IS NULL
          AND c.user_id NOT IN (SELECT id FROM users WHERE phone_e164 = ?)
        GROUP BY c.user_id)
      """, [target, target])
    let owners = try db.int(
      """
      SELECT count(DISTINCT c.user_id) FROM contacts c JOIN contact_phones p ON p.contact_id = c.id
      WHERE p.raw = ? AND c.user_id % 5 = 2
      """, [target])
    #expect(owners > 2)

    let runs = await Self.nights(EnrichmentFetchJob(), db, config: config)
    for run in runs { #expect(run.status == .succeeded, "\(run.error ?? "")") }
    #expect(runs.allSatisfy { ($0.counts.read["users examined (changed)"] ?? 0) == 0 })
    let linked = try db.int(
      """
      SELECT count(DISTINCT c.user_id) FROM contacts c JOIN contact_phones p ON p.contact_id = c.id
      JOIN users u ON u.id = c.rin_user_id WHERE p.raw = ? AND u.phone_e164 = ? AND c.user_id % 5 = 2
      """, [target, target])
    #expect(linked == owners, "every edited contact linked within the period")
    #expect(Self.corrections(runs) == owners, "each owner whose contact got linked counted once")
  }

  /// Each kind of row the pass reads, edited with no stamp for its own quarter of the owners
  /// (numbers, addresses, family names: `user_id % 4` = 1, 2, 3): a pass that skipped one kind
  /// would leave that quarter uncorrected.
  static func editWithoutStamps(_ db: TestDatabase) throws {
    try db.execute(
      """
      UPDATE contact_phones SET raw = '+1 212 555 0142'
      WHERE contact_id IN (SELECT id FROM contacts WHERE user_id % 4 = 1 AND id % 2 = 0)
      """)
    try db.execute(
      """
      UPDATE contact_emails SET address = 'pat@acme-widgets.com'
      WHERE contact_id IN (SELECT id FROM contacts WHERE user_id % 4 = 2 AND id % 2 = 0)
      """)
    try db.execute(
      "UPDATE contacts SET family_name = 'Okonkwo-Lindqvist' WHERE user_id % 4 = 3 AND id % 2 = 0")
  }

  /// Each owner's live suggestions, as text, in one order.
  static func suggestionsByOwner(_ db: TestDatabase) throws -> [Int: [String]] {
    var byOwner: [Int: [String]] = [:]
    for row in try db.strings(
      """
      SELECT user_id || '|' || circle_id || '|' || pattern || '|' || pattern_value || '|' || contact_ids
      FROM circle_suggestions WHERE status <> 'superseded' ORDER BY 1
      """)
    {
      let owner = Int(row.prefix { $0 != "|" }) ?? -1
      byOwner[owner, default: []].append(row)
    }
    return byOwner
  }
}
