import Logging
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// Sends a batch's uncached keys to the provider, `concurrency` requests at a time, and caches
/// each response's answers in a transaction of its own the moment it arrives, before anything
/// else happens: once a key is answered, no crash or rerun can make it be paid for again.
struct ProviderFetcher {
  let plan: ProviderPlan
  let context: JobContext
  /// This run's claims on the keys it asks: each request's are released in the transaction that
  /// records how it ended, those of requests it will not send as soon as it stops asking, so
  /// that no other worker waits for a key this one is done with.
  let claims: ProviderKeyClaims

  /// - Parameter expired: keys whose cache row exists but expired (rewritten, not inserted).
  func fetch(_ lookups: [ProviderLookup], expired: Set<String>, tally: inout EnrichmentTally) async throws {
    let chunks = stride(from: 0, to: lookups.count, by: plan.batchSize).map {
      Array(lookups[$0..<min($0 + plan.batchSize, lookups.count)])
    }
    let client = plan.client
    var refusal: Int?
    var next = 0
    try await withThrowingTaskGroup(of: (chunk: [ProviderLookup], outcome: ProviderOutcome).self) { group in
      var running = 0
      func fill() {
        // A breaker waiting for its probe lets one request go first; an open one, none.
        let limit = client.circuitBreaker.isProbing ? 1 : plan.concurrency
        while running < limit, next < chunks.count, refusal == nil, !context.isStopRequested, plan.mayAsk {
          let chunk = chunks[next]
          next += 1
          running += 1
          group.addTask { (chunk, await client.lookup(chunk)) }
        }
      }
      fill()
      while let (chunk, outcome) = try await group.next() {
        running -= 1
        if let status = try record(outcome, for: chunk, expired: expired, tally: &tally) {
          refusal = status
          group.cancelAll()
        }
        fill()
      }
    }
    try releaseUnsent(Array(chunks[next...].joined()), tally: &tally)
    if let refusal {
      throw RunFailure(
        .jobFailed,
        "the enrichment provider refused the API key (HTTP \(refusal)); answers received so far are cached. Check the key in the variable named by jobs.enrichment-fetch.provider.api_key_env"
      )
    }
  }

  /// The keys of the requests this run stopped before sending: an open breaker or a spent
  /// budget defers them, a stop request or a refused API key leaves them; either way their
  /// claims go now, in the transaction that records them left.
  private func releaseUnsent(_ unsent: [ProviderLookup], tally: inout EnrichmentTally) throws {
    guard !unsent.isEmpty else { return }
    let keys = unsent.map(\.id)
    try context.write { try claims.release(keys, in: $0) }
    let why: String
    if plan.mayAsk {
      why = context.isStopRequested ? "the run is stopping" : "the provider refused the API key"
    } else {
      why = plan.client.circuitBreaker.isOpen ? "circuit breaker open" : "daily budget spent"
      tally.keysDeferred += unsent.count
    }
    leave(unsent, tally: &tally)
    context.logger.debug(
      "stopped asking the provider (\(why)); released the claims on the keys not asked",
      metadata: ["keys": "\(keys.count)"])
  }

  /// Caches what `outcome` answered and counts the rest, releasing the request's claims in the
  /// same transaction; returns the status of a refusal.
  private func record(
    _ outcome: ProviderOutcome, for chunk: [ProviderLookup], expired: Set<String>,
    tally: inout EnrichmentTally
  ) throws -> Int? {
    if outcome != .cancelled, outcome != .deferred { tally.keysRequested += chunk.count }
    var rows: [LookupRow] = []
    if case .answered(let results, _, _) = outcome {
      rows = chunk.compactMap { lookup in
        results[lookup.id].flatMap { row(for: lookup.id, $0, first: !expired.contains(lookup.id)) }
      }
    }
    let keys = chunk.map(\.id)
    try context.write { tx in
      try EnrichmentQueries(tx: tx).putLookups(
        rows.map { ($0, !expired.contains($0.key)) }, provider: plan.name)
      try claims.release(keys, in: tx)
    }
    switch outcome {
    case .answered(_, let unknownIDs, let duplicateIDs):
      tally.unknownIDs += unknownIDs
      tally.duplicateIDs += duplicateIDs
      for row in rows { row.status == .match ? (tally.matches += 1) : (tally.noMatches += 1) }
      let answered = Set(rows.map(\.key))
      let unanswered = chunk.filter { !answered.contains($0.id) }
      tally.keysUnansweredInResponses += unanswered.count
      leave(unanswered, tally: &tally)
      return nil
    case .gaveUp(let failure):
      tally.failures[failure.description, default: 0] += 1
      context.logger.debug(
        "provider request gave up (\(failure)); its keys are left for the next run",
        metadata: ["keys": "\(chunk.count)"])
      leave(chunk, tally: &tally)
      return nil
    case .refused(let status):
      leave(chunk, tally: &tally)
      return status
    case .cancelled:
      leave(chunk, tally: &tally)
      return nil
    case .deferred:
      tally.keysDeferred += chunk.count
      leave(chunk, tally: &tally)
      return nil
    }
  }

  /// `first`: no cache row had the key (`RefreshPhase.firstExpiry`).
  private func row(for key: String, _ result: ProviderItemResult, first: Bool) -> LookupRow? {
    let now = context.now
    func expiry(_ ttl: Duration) -> UTCInstant {
      first ? plan.refresh.firstExpiry(of: key, askedAt: now, ttl: ttl) : now + ttl
    }
    switch result {
    case .match(let likelihood, let person):
      return LookupRow(
        key: key, status: .match, response: CachedMatch(likelihood: likelihood, person: person).json(),
        fetchedAt: now, expiresAt: expiry(plan.matchTTL))
    case .noMatch:
      return LookupRow(
        key: key, status: .noMatch, response: nil, fetchedAt: now, expiresAt: expiry(plan.noMatchTTL))
    case .failed:
      return nil
    }
  }

  private func leave(_ lookups: [ProviderLookup], tally: inout EnrichmentTally) {
    tally.keysLeftForNextRun += lookups.count
    tally.givenUp.formUnion(lookups.map(\.id))
  }
}
