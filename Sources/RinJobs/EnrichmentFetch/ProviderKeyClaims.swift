import Foundation
import RinDomain
import RinRuntime
import RinStorage

/// Keeps concurrent workers (shards of one run, on one host or many) from paying twice for a key
/// that users of several shards have: a worker asks only for the keys it claims in
/// `provider_key_claims`, and looks for the answers to the others in the cache.
///
/// No worker holds a claim it will not ask: each request's claims go in the transaction that
/// records how it ended (its answers cached, or its keys left), and the claims of requests a
/// worker will not send (budget spent, breaker open, stop, deadline) go the moment it stops
/// asking. A worker asks its own claims first and waits for the others' answers only after, at
/// most `ProviderPlan.longestWaitForOtherWorkers`: two workers each waiting for keys the other
/// claimed cannot hold each other up for longer. A key whose claimant got no answer (it gave up,
/// stopped, or died) or is still asking when the wait ends is left for the next run rather than
/// asked again.
struct ProviderKeyClaims {
  let provider: String
  let context: JobContext
  /// A cached answer lasting past this instant answers a key (`RefreshPhase`: a row that ends
  /// sooner is the one the batch is asking again, not another worker's).
  let neededUntil: UTCInstant
  /// How often a waiting worker looks at the claims and the cache.
  var pollInterval: Duration = .milliseconds(100)

  /// The keys this run may ask for. A key another worker answered (and let go of) since the
  /// caller read the cache is in the cache now: its claim goes again at once, in the same
  /// transaction, and it counts as answered by another worker.
  func claim(_ keys: [String], tally: inout EnrichmentTally) throws -> Set<String> {
    let (held, answered) = try context.write { tx in
      let queries = EnrichmentQueries(tx: tx)
      let held = try queries.claimLookupKeys(
        provider: provider, keys: keys, runID: context.runID,
        nowMicroseconds: context.wallClock.microsecondsSince1970)
      let expiries = try queries.lookupExpiries(provider: provider, keys: Array(held))
      let answered = held.filter { (expiries[$0] ?? .min) > neededUntil }
      try release(Array(answered), in: tx)
      return (held, answered)
    }
    tally.answeredByOtherWorkers += answered.count
    return held.subtracting(answered)
  }

  /// Lets go of this run's claims on `keys` in `tx`, the transaction that caches their answers
  /// or records that they are left: a worker that finds a key unclaimed then finds its answer
  /// in the cache, if it got one.
  func release(_ keys: [String], in tx: StorageTransaction) throws {
    try EnrichmentQueries(tx: tx).releaseLookupKeys(provider: provider, keys: keys, runID: context.runID)
  }

  /// After an error part-way through asking: lets go of whatever claims are still held.
  func releaseAfterFailure(_ keys: [String]) {
    do {
      try context.write { try release(keys, in: $0) }
    } catch {
      // Harmless: the claims end with this run's lease, and no one waits long for them.
      context.logger.warning(
        "could not release provider key claims after a failure: \(error)", metadata: ["keys": "\(keys.count)"]
      )
    }
  }

  /// Waits, at most `longest` and only while the run goes on, until each of `keys` is answered
  /// in the cache by the worker that claimed it or its claim is gone without an answer; what is
  /// unanswered then is left for the next run. Says in the log what it waited for and how long.
  func awaitAnswers(_ keys: [String], longest: Duration, tally: inout EnrichmentTally) async throws {
    guard !keys.isEmpty else { return }
    let clock = ContinuousClock()
    let start = clock.now
    context.logger.debug(
      "waiting for answers to keys other workers claimed",
      metadata: ["keys": "\(keys.count)", "at_most_ms": "\(longest.wholeMilliseconds)"])
    var pending = keys
    var answered = 0
    var unclaimed = 0
    var ended = "all answered or released"
    while true {
      // Claims first, then the cache: a claimant caches its answers in the transaction that
      // releases their claims, so a key found unclaimed here has its answer in the cache read
      // next, if it got one.
      let stillClaimed = try context.read {
        try EnrichmentQueries(tx: $0).lookupKeysClaimedByOthers(
          provider: provider, keys: pending, runID: context.runID,
          nowMicroseconds: context.wallClock.microsecondsSince1970)
      }
      let expiries = try context.read {
        try EnrichmentQueries(tx: $0).lookupExpiries(provider: provider, keys: pending)
      }
      let answeredNow = Set(pending.filter { (expiries[$0] ?? .min) > neededUntil })
      answered += answeredNow.count
      let gone = pending.filter { !answeredNow.contains($0) && !stillClaimed.contains($0) }
      unclaimed += gone.count
      leave(gone, tally: &tally)
      pending = pending.filter { !answeredNow.contains($0) && stillClaimed.contains($0) }
      if pending.isEmpty { break }
      if context.isStopRequested {
        ended = "the run is stopping"
        break
      }
      let remaining = start + longest - clock.now
      if remaining <= .zero {
        ended = "waited the longest allowed"
        break
      }
      try await Task.sleep(for: min(pollInterval, remaining))
    }
    tally.answeredByOtherWorkers += answered
    tally.keysLeftClaimedByOtherWorkers += pending.count
    leave(pending, tally: &tally)
    let waited = clock.now - start
    tally.longestWaitForOtherWorkers = max(tally.longestWaitForOtherWorkers, waited)
    context.logger.log(
      level: pending.isEmpty ? .debug : .info,
      pending.isEmpty
        ? "waited for answers to keys other workers claimed"
        : "left keys other workers claimed and had not answered for the next run",
      metadata: [
        "keys": "\(keys.count)", "answered": "\(answered)", "unanswered_released": "\(unclaimed)",
        "left_still_claimed": "\(pending.count)", "waited_ms": "\(waited.wholeMilliseconds)",
        "ended": "\(ended)",
      ])
  }

  private func leave(_ keys: [String], tally: inout EnrichmentTally) {
    tally.keysLeftForNextRun += keys.count
    tally.givenUp.formUnion(keys)
  }

}
