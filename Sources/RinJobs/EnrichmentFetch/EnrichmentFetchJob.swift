import CRinShim
import RinConfiguration
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.3: links contacts to the Rin users they are (Rin network, no network calls),
/// then fills company, title and birthday from the external provider, paying for each lookup
/// key at most once per cache lifetime.
public struct EnrichmentFetchJob: Job {
  public typealias Settings = EnrichmentFetchSettings
  public typealias Details = EnrichmentFetchDetails
  public static let name = JobName.enrichmentFetch
  let normalizer: any ContactNormalizing
  let tuning: ProviderTuning
  let calls: any ProviderCalls

  public init() { self.init(tuning: ProviderTuning()) }

  public init(normalizer: any ContactNormalizing = RinContactNormalizer(), tuning: ProviderTuning) {
    self.init(normalizer: normalizer, tuning: tuning, calls: PaidProviderCalls())
  }

  init(normalizer: any ContactNormalizing, tuning: ProviderTuning, calls: any ProviderCalls) {
    self.normalizer = normalizer
    self.tuning = tuning
    self.calls = calls
  }

  /// The provider is paid: a dry run counts what it would ask instead.
  public var forDryRun: Self {
    EnrichmentFetchJob(normalizer: normalizer, tuning: tuning, calls: CountedProviderCalls())
  }

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs[Self.self]
    var circuit = try settings.provider.flatMap { try calls.circuit($0, context: context) }
    let plan = try makePlan(settings, circuit: circuit, context: context)
    // The API key is in this process's environment and memory: no core file, no ptrace.
    if plan != nil { _ = rin_set_undumpable() }
    let applier = EnrichmentApplier(
      provider: plan.map { ($0.name, $0.minLikelihood) }, now: context.now, runID: context.runID)
    let recheck = try RecheckRule.load(
      settings: applier.checkSettings, parserDigest: normalizer.parserDigest, now: context.now,
      refresh: plan?.refresh, context: context)
    var tally = EnrichmentTally()
    var unchanged = 0
    var ownersUnchanged = 0
    try PeriodicContactPass.run(fullEvery: settings.fullEvery, context: context)
    let changes = try OwnerChanges.start(context)
    // Owners are selected a window at a time and examined `batch_size` at a time: on a night
    // when few changed, a transaction per window rather than per 25 users walked.
    var window = EnrichmentOwners()
    try await context.forEachUserBatch(
      window: max(settings.batchSize, BatchSize.defaultValue),
      split: { ids in
        window = try EnrichmentOwners.select(ids, recheck: recheck, changes: changes, context: context)
        return window.batches(of: ids, examinedPerBatch: settings.batchSize)
      },
      prepare: { ids in
        let owners = window.restricted(to: ids)
        ownersUnchanged += owners.unchanged
        var prepared = try await prepare(owners, recheck: recheck, forProvider: plan != nil, context: context)
        unchanged += prepared.unchanged
        if let plan {
          prepared.earlierAnswers = try await lookUp(
            prepared, plan: plan, recheck: recheck, context: context, tally: &tally)
          try circuit?.recordIfOpened(
            plan.client.circuitBreaker, keysDeferred: tally.keysDeferred, context: context)
        }
        return prepared
      },
      { batch, prepared in
        try write(prepared, batch: batch, applier: applier, recheck: recheck, now: context.now)
      })
    try changes.finish(context)
    // Contacts whose inputs, settings and cached answers were as at their last check.
    context.tally.details[EnrichmentFetchDetails.self].contactsUnchanged = unchanged
    // Owners none of whose inputs changed: their contacts were not read.
    context.tally.details[EnrichmentFetchDetails.self].ownersUnchanged = ownersUnchanged
    if plan != nil { try emptyKeyClaimsIfIdle(context) }
    if let plan {
      try report(plan, circuit: &circuit, tally: tally, settings: settings, context: context)
    }
  }

  /// The configured provider, ready to call, its breaker where the last run left it; nil (and
  /// said in the log and the summary) when none is configured.
  private func makePlan(
    _ settings: EnrichmentFetchSettings, circuit: ProviderCircuit?, context: JobContext
  ) throws -> ProviderPlan? {
    let logger = context.logger
    let plan = try ProviderPlan.make(
      settings.provider, environment: context.environment, tuning: tuning, wallClock: context.wallClock,
      breakerState: circuit?.startState ?? .closed(consecutiveFailures: 0),
      storage: calls.sharedAllowance(context),
      onBreakerChange: { [circuit] in circuit?.breakerChanged($0, logger: logger) })
    if plan == nil {
      context.logger.info(
        "no enrichment provider configured (jobs.enrichment-fetch.provider): running the Rin-network source only"
      )
      context.tally.details[EnrichmentFetchDetails.self].provider = "none (Rin-network source only)"
    }
    return plan
  }

  /// Reads and normalizes the contacts of the owners to examine, outside the batch's transaction.
  private func prepare(
    _ owners: EnrichmentOwners, recheck: RecheckRule, forProvider: Bool, context: JobContext
  ) async throws -> PreparedBatch {
    let (rows, live, reads): ([EnrichmentContactRow], [LiveContactCheck], BookReads) =
      owners.examined.isEmpty
      ? ([], [], BookReads())
      : try context.read { tx in
        let queries = EnrichmentQueries(tx: tx)
        // An owner whose verified users only left has the checks read of just the contacts
        // that were in their buckets.
        let live =
          try queries.enrichmentChecks(of: owners.examined.filter { owners.departuresOnly[$0] == nil })
          + queries.enrichmentChecks(ids: owners.departuresOnly.values.flatMap { $0 }.sorted())
        let reads = BookReads.plan(owners, live: live, recheck: recheck)
        var rows = try queries.enrichmentContacts(of: reads.whole)
        if !reads.inPart.isEmpty {
          // A contact read both ways (stamped, and its check cannot tell) is kept once.
          var seen = Set(rows.map(\.id))
          for row in try queries.enrichmentContacts(of: reads.inPart, stampedAfter: reads.stampedAfter)
            + queries.enrichmentContacts(ids: reads.contacts)
          where owners.departuresOnly[row.userID].map({ $0.contains(row.id) }) ?? true
            && seen.insert(row.id).inserted
          {
            // Of an owner whose verified users only left, a contact stamped before the owner's
            // own threshold (read for another owner's) is as its unread check saw it.
            rows.append(row)
          }
          rows.sort { $0.id < $1.id }
        }
        return (rows, live, reads)
      }
    var checks: [ContactID: EnrichmentCheck] = [:]
    for contact in live { checks[contact.contactID] = contact.check }
    var prepared = await PreparedBatch.make(
      rows, checks: checks, recheck: recheck, normalizer: normalizer, forProvider: forProvider)
    prepared.addUnchangedByCheck(reads.unread(live, read: rows.map(\.id)), recheck: recheck)
    prepared.addKept(owners.kept, recheck: recheck)
    prepared.recheckedByBuckets = reads.recheckedByBuckets.compactMap { contact in
      contact.check.map { (contact.contactID, contact.userID, $0) }
    }
    prepared.owners = owners
    prepared.digests = owners.digestsToStore(rows)
    // An examined owner without numbers has no buckets: stored as such, not left as before.
    for owner in owners.examined where prepared.buckets[owner] == nil { prepared.buckets[owner] = [] }
    for owner in owners.examined where prepared.occupied[owner] == nil {
      prepared.occupied[owner] = OccupiedBuckets()
    }
    return prepared
  }

  /// The batch's writes, in its transaction: the contacts' values and checks, the owners'
  /// buckets and examinations.
  private func write(
    _ prepared: PreparedBatch, batch: UserBatch, applier: EnrichmentApplier, recheck: RecheckRule,
    now: UTCInstant
  ) throws {
    batch.counts.addRead(OwnerCounter.users, batch.userIDs.count)
    for (reason, count) in prepared.owners.reasons {
      batch.counts.addRead(OwnerCounter.usersExamined(reason), count)
    }
    batch.counts.addRead(OwnerCounter.usersUnchanged, prepared.owners.unchanged)
    batch.counts.addRead(EnrichmentFetchCounter.contactsLeftToTheirChecks, prepared.leftToChecks)
    batch.counts.addRead(
      EnrichmentFetchCounter.contactsSettledByTheirChecks, prepared.recheckedByBuckets.count)
    batch.counts.addRead(
      EnrichmentFetchCounter.usersWithDeparturesOnly, prepared.owners.departuresOnly.count
    )
    batch.counts.addUnstampedCorrections(0)
    guard !prepared.owners.examined.isEmpty else { return }
    let applied = try applier.apply(batch, prepared)
    // Nothing the services stamped moved for these owners, yet their contacts' values did.
    batch.counts.addUnstampedCorrections(applied.written.intersection(prepared.owners.periodic).count)
    let dueAt = prepared.unchangedDueAt.merging(applied.dueAt) { min($0, $1) }
    let queries = EnrichmentQueries(tx: batch.tx)
    try queries.saveEnrichmentOwnerBuckets(prepared.buckets, occupied: prepared.occupied)
    try batch.tx.saveOwnerExaminations(
      job: name, prepared.owners.records(buckets: prepared.buckets, dueAt: dueAt, recheck: recheck, now: now))
    try queries.saveEnrichmentState(
      checks: applied.checks + prepared.recheckedByBuckets, digests: prepared.digests)
    try batch.tx.forgetOwnersFoundByPass(job: name, prepared.owners.foundByPass)
  }

  /// What the provider did this run: the summary's details, the breaker kept for the next run,
  /// and a warning when the day's budget ran out.
  private func report(
    _ plan: ProviderPlan, circuit: inout ProviderCircuit?, tally: EnrichmentTally,
    settings: EnrichmentFetchSettings, context: JobContext
  ) throws {
    calls.addDetails(tally, plan: plan, to: &context.tally.details[EnrichmentFetchDetails.self])
    tally.logGivenUpRequests(context.logger)
    if var health = try circuit?.finish(
      plan.client.circuitBreaker, keysDeferred: tally.keysDeferred, context: context)
    {
      health.dailyLimitReached = plan.client.statistics.stoppedByDailyLimit > 0
      context.tally.providerHealth = health
      context.tally.details[EnrichmentFetchDetails.self].providerAvailable = health.available
    }
    if plan.client.statistics.stoppedByDailyLimit > 0, let limit = settings.provider?.maxLookupsPerDay {
      context.logger.warning(
        "provider \(plan.name): today's lookups reached max_lookups_per_day (\(limit)); the keys not asked are left for tomorrow",
        metadata: ["keys_deferred": "\(tally.keysDeferred)"])
    }
  }

  /// Every claim of this run is released by now; when no other worker holds one, the claims'
  /// table is emptied (`Storage.emptyIfIdle`), so that its index does not keep every key the
  /// night claimed.
  private func emptyKeyClaimsIfIdle(_ context: JobContext) throws {
    if try context.storage.emptyIfIdle(.providerKeyClaims) == .notPermitted {
      context.logger.warning(
        "provider_key_claims could not be emptied: grant the job role TRUNCATE on it (docs/OPERATIONS.md \"Roles and grants\")"
      )
    }
  }

  /// Asks the provider for the batch's keys that have no cache row lasting until their owners'
  /// next visit (`RefreshPhase`): the latest of them, when owners share a key. Returns the rows
  /// it is about to replace that an owner before the first asker still takes its answers from
  /// (`PreparedBatch.answer`).
  private func lookUp(
    _ prepared: PreparedBatch, plan: ProviderPlan, recheck: RecheckRule, context: JobContext,
    tally: inout EnrichmentTally
  ) async throws -> [String: PreparedBatch.EarlierAnswer] {
    let wanted = prepared.providerLookups
    let expiries = try context.read {
      try EnrichmentQueries(tx: $0).lookupExpiries(provider: plan.name, keys: Array(wanted.keys))
    }
    var neededUntil: [String: UTCInstant] = [:]
    for contact in prepared.contacts where !contact.skipsProvider {
      let horizon = recheck.horizon(owner: contact.row.userID)
      for lookup in contact.channels.lookups {
        neededUntil[lookup.id] = max(neededUntil[lookup.id] ?? horizon, horizon)
      }
    }
    let missing = wanted.values.filter { lookup in
      guard let expiresAt = expiries[lookup.id], expiresAt > neededUntil[lookup.id] ?? context.now else {
        return !tally.givenUp.contains(lookup.id)
      }
      tally.cacheHits += 1
      return false
    }.sorted { $0.id < $1.id }
    guard !missing.isEmpty else { return [:] }
    let earlier = try earlierAnswers(
      prepared, missing: missing, expiries: expiries, plan: plan, recheck: recheck, context: context)
    try await calls.lookUp(
      missing, expired: Set(expiries.keys),
      neededUntil: missing.compactMap { neededUntil[$0.id] }.max() ?? context.now, plan: plan,
      context: context, tally: &tally)
    return earlier
  }

  /// Of the cached rows of `missing`, those that outlast the next visit of some owner that
  /// comes before every owner whose next visit they do not: that owner is given them as cached,
  /// as a batch ending between the two would give them.
  private func earlierAnswers(
    _ prepared: PreparedBatch, missing: [ProviderLookup], expiries: [String: UTCInstant], plan: ProviderPlan,
    recheck: RecheckRule, context: JobContext
  ) throws -> [String: PreparedBatch.EarlierAnswer] {
    let asked = Set(missing.map(\.id))
    var firstAsker: [String: UserID] = [:]
    var firstUser: [String: UserID] = [:]
    for contact in prepared.contacts where !contact.skipsProvider {
      let owner = contact.row.userID
      let horizon = recheck.horizon(owner: owner)
      for lookup in contact.channels.lookups where asked.contains(lookup.id) {
        guard let expiresAt = expiries[lookup.id] else { continue }
        firstUser[lookup.id] = min(firstUser[lookup.id] ?? owner, owner)
        if expiresAt <= horizon { firstAsker[lookup.id] = min(firstAsker[lookup.id] ?? owner, owner) }
      }
    }
    let keys = Set(firstAsker.filter { key, asker in firstUser[key].map { $0 < asker } ?? false }.keys)
    guard !keys.isEmpty else { return [:] }
    let rows = try context.read { try EnrichmentQueries(tx: $0).lookups(provider: plan.name, keys: keys) }
    var earlier: [String: PreparedBatch.EarlierAnswer] = [:]
    for (key, row) in rows {
      if let asker = firstAsker[key] {
        earlier[key] = PreparedBatch.EarlierAnswer(row: row, firstAsker: asker)
      }
    }
    return earlier
  }
}
