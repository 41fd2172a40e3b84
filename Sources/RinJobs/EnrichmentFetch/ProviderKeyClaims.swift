import Foundation
import RinRuntime
import RinStorage

/// Keeps concurrent workers (shards of one run, on one host or many) from paying twice for a key
/// that users of several shards have: a worker asks only for the keys it claims in
/// `provider_key_claims`, and waits for the answers to the others in the cache. A key whose
/// claimant got no answer (it gave up, or died and its claim expired) is left for the next run
/// rather than asked again.
struct ProviderKeyClaims {
  let provider: String
  let context: JobContext
  /// How often a waiting worker looks at the cache.
  var pollNanoseconds: UInt64 = 100_000_000

  static var wallMicroseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

  /// The keys this run may ask for.
  func claim(_ keys: [String]) throws -> Set<String> {
    try context.write {
      try $0.claimLookupKeys(
        provider: provider, keys: keys, runID: context.runID, nowMicroseconds: Self.wallMicroseconds)
    }
  }

  /// After this run asked (or left) them: their answers are in the cache now, or nobody's.
  func release(_ keys: [String]) {
    do {
      try context.write { try $0.releaseLookupKeys(provider: provider, keys: keys, runID: context.runID) }
    } catch {
      // Harmless: the claims expire, and until then the others wait for them.
      context.logger.warning(
        "could not release provider key claims: \(error)", metadata: ["keys": "\(keys.count)"])
    }
  }

  /// Waits until every one of `keys` is answered in the cache by the worker that claimed it, or
  /// its claim is gone without an answer (left for the next run).
  func awaitAnswers(_ keys: [String], tally: inout EnrichmentTally) async throws {
    var pending = keys
    while !pending.isEmpty {
      // Claims first, then the cache: a claimant caches its answers before it lets go, so a
      // key found unclaimed here has its answer in the cache read next, if it got one.
      let stillClaimed = try context.read {
        try $0.lookupKeysClaimedByOthers(
          provider: provider, keys: pending, runID: context.runID, nowMicroseconds: Self.wallMicroseconds)
      }
      let expiries = try context.read { try $0.lookupExpiries(provider: provider, keys: pending) }
      let answered = Set(pending.filter { (expiries[$0] ?? Int64.min) > context.now })
      tally.answeredByOtherWorkers += answered.count
      let unanswered = pending.filter { !answered.contains($0) && !stillClaimed.contains($0) }
      pending = pending.filter { !answered.contains($0) && stillClaimed.contains($0) }
      if context.isStopRequested { leave(unanswered + pending, tally: &tally); return }
      leave(unanswered, tally: &tally)
      guard !pending.isEmpty else { return }
      try await Task.sleep(nanoseconds: pollNanoseconds)
    }
  }

  private func leave(_ keys: [String], tally: inout EnrichmentTally) {
    tally.keysLeftForNextRun += keys.count
    tally.givenUp.formUnion(keys)
  }
}
