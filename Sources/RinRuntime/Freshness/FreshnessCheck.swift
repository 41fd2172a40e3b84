import RinConfiguration
import RinDomain
import RinStorage

/// `rinjobs freshness`: for each output, how many of the users it promises a result to would
/// see a stale one at `now`, judged from the outputs and the per-user state the jobs keep,
/// never from the run ledger (docs/OPERATIONS.md "Freshness"). One read transaction per output;
/// every statement reaches rows by the user's id (`FreshnessQueries`).
public struct FreshnessCheck: Sendable {
  public let promises: [FreshnessPromise]
  /// The split (`id mod N`) whose shards the counts are given for; nil: no split.
  public let shardCount: Int?

  public init(config: RinConfig, shardCount: Int?) {
    self.promises = FreshnessSettings.promises(in: config)
    self.shardCount = shardCount
  }

  public func run(storage: Storage, now: UTCInstant) throws -> FreshnessResult {
    var tallies: [FreshnessTally] = []
    // Outputs with the same max age promise the same users: counted once.
    var promised: [UTCInstant: [Int: Int]] = [:]
    for promise in promises {
      tallies.append(
        try storage.read { tx in try tally(promise, tx: tx.freshness, now: now, promised: &promised) })
    }
    return FreshnessResult(now: now, shardCount: shardCount, tallies: tallies)
  }

  private func tally(
    _ promise: FreshnessPromise, tx: FreshnessQueries, now: UTCInstant,
    promised: inout [UTCInstant: [Int: Int]]
  ) throws -> FreshnessTally {
    var tally = FreshnessTally(promise: promise, shardCount: shardCount)
    let createdBy = promise.promisedCreatedBy(now: now)
    if promised[createdBy] == nil {
      promised[createdBy] = try tx.promisedUsers(createdBy: createdBy, shardCount: shardCount)
    }
    for (index, count) in promised[createdBy] ?? [:] {
      tally.addPromised(count, shard: shardCount == nil ? nil : index)
    }
    let cutoff = promise.cutoff(now: now)
    switch promise.output {
    case .score:
      try tx.staleScoreUsers(
        createdBy: createdBy, cutoff: cutoff, cutoffDay: CalendarDate(utcInstant: cutoff)
      ) {
        tally.addStale(user: $0.userID, since: $0.computedAt ?? $0.createdAt)
      }
    case .badges:
      let marks = ChangeWatermarkCover(try tx.changeWatermarks(job: promise.output.job))
      try tx.badgeCandidates(createdBy: createdBy, everyUser: !marks.coversEveryone(after: cutoff)) {
        candidate in
        if let since = FreshnessRules.badges(
          counted: candidate.computedAt != nil, watermark: marks.latest(for: candidate.userID),
          createdAt: candidate.createdAt, promise: promise, now: now)
        {
          tally.addStale(user: candidate.userID, since: since)
        }
      }
    case .upcoming:
      // No zone is more than 14 hours ahead of UTC: a date past the cutoff's by a day is fresh
      // everywhere, and the query leaves it out.
      let latestDate = CalendarDate(utcInstant: cutoff.advanced(by: 14 * 3_600)).adding(days: 1)
      try tx.upcomingCandidates(createdBy: createdBy, before: latestDate) { candidate in
        if let since = FreshnessRules.upcoming(
          rowsFor: candidate.today, zone: candidate.zone, createdAt: candidate.createdAt, promise: promise,
          now: now)
        {
          tally.addStale(user: candidate.userID, since: since)
        }
      }
    case .circleSuggestions, .enrichment:
      let marks = ChangeWatermarkCover(try tx.changeWatermarks(job: promise.output.job))
      try tx.examinationCandidates(
        job: promise.output.job, createdBy: createdBy, examinedBy: promise.examinationCutoff(now: now),
        dueBy: cutoff, everyUser: !marks.coversEveryone(after: cutoff)
      ) { candidate in
        if let since = FreshnessRules.examined(
          examinedAt: candidate.computedAt, dueAt: candidate.dueAt,
          watermark: marks.latest(for: candidate.userID),
          createdAt: candidate.createdAt, promise: promise, now: now)
        {
          tally.addStale(user: candidate.userID, since: since)
        }
      }
    }
    return tally
  }
}

/// A job's change watermarks by scope, asked per user: the latest mark of a scope holding them
/// (`all`, or the `K/N` with `id mod N = K`; a deployment that changed its split keeps both).
struct ChangeWatermarkCover {
  let all: UTCInstant?
  /// N → K → the mark of `K/N`.
  let parts: [Int: [Int: UTCInstant]]

  init(_ marks: [(scope: String, verifiedThrough: UTCInstant)]) {
    var all: UTCInstant?
    var parts: [Int: [Int: UTCInstant]] = [:]
    for mark in marks {
      switch RunShard(mark.scope) {
      case .all: all = max(all ?? mark.verifiedThrough, mark.verifiedThrough)
      case .part(let index, let count): parts[count, default: [:]][index] = mark.verifiedThrough
      case nil: continue
      }
    }
    self.all = all
    self.parts = parts
  }

  func latest(for user: UserID) -> UTCInstant? {
    let user = user.rawValue
    var latest = all
    for (count, marks) in parts {
      let index = Int(((user % Int64(count)) + Int64(count)) % Int64(count))
      if let mark = marks[index] { latest = max(latest ?? mark, mark) }
    }
    return latest
  }

  /// Whether every user is in a scope marked after `cutoff`: then only the users stale for
  /// another reason (an old examination, no badge counts) need reading.
  func coversEveryone(after cutoff: UTCInstant) -> Bool {
    if let all, all > cutoff { return true }
    return parts.contains { count, marks in (0..<count).allSatisfy { (marks[$0] ?? .min) > cutoff } }
  }
}
