import Logging
import RinProviderClient
import RinRuntime
import RinStorage

/// Sends a batch's uncached keys to the provider, `concurrency` requests at a time, and caches
/// each response's answers in a transaction of its own the moment it arrives, before anything
/// else happens: once a key is answered, no crash or rerun can make it be paid for again.
struct ProviderFetcher {
  let plan: ProviderPlan
  let context: JobContext

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
        while running < limit, next < chunks.count, refusal == nil, !context.isStopRequested,
          !client.circuitBreaker.isOpen
        {
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
    if client.circuitBreaker.isOpen {
      for chunk in chunks[next...] { _ = try record(.deferred, for: chunk, expired: expired, tally: &tally) }
    }
    if let refusal {
      throw RunFailure(
        .jobFailed,
        "the enrichment provider refused the API key (HTTP \(refusal)); answers received so far are cached. Check the key in the variable named by jobs.enrichment-fetch.provider.api_key_env"
      )
    }
  }

  /// Caches what `outcome` answered and counts the rest; returns the status of a refusal.
  private func record(
    _ outcome: ProviderOutcome, for chunk: [ProviderLookup], expired: Set<String>,
    tally: inout EnrichmentTally
  ) throws -> Int? {
    if outcome != .cancelled, outcome != .deferred { tally.keysRequested += chunk.count }
    switch outcome {
    case .answered(let results, let unknownIDs, let duplicateIDs):
      let rows: [LookupRow] = chunk.compactMap { lookup in
        results[lookup.id].flatMap { row(for: lookup.id, $0) }
      }
      if !rows.isEmpty {
        try context.write { tx in
          for row in rows { try tx.putLookup(row, provider: plan.name, isNew: !expired.contains(row.key)) }
        }
      }
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

  private func row(for key: String, _ result: ProviderItemResult) -> LookupRow? {
    let now = context.now
    switch result {
    case .match(let likelihood, let person):
      return LookupRow(
        key: key, status: .match, response: CachedMatch(likelihood: likelihood, person: person).json(),
        fetchedAt: now, expiresAt: now + plan.matchTTL)
    case .noMatch:
      return LookupRow(
        key: key, status: .noMatch, response: nil, fetchedAt: now, expiresAt: now + plan.noMatchTTL)
    case .failed:
      return nil
    }
  }

  private func leave(_ lookups: [ProviderLookup], tally: inout EnrichmentTally) {
    tally.keysLeftForNextRun += lookups.count
    tally.givenUp.formUnion(lookups.map(\.id))
  }
}
