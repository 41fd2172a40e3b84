import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.1: each live user's Rin Score for `as_of`, its delta, the Score Changed card and
/// notification, and the score-milestone invite prompt.
public struct DailyScoreJob: Job {
  public typealias Settings = BatchSizeSettings
  public typealias Details = NoDetails
  public static let name = JobName.dailyScore
  /// How long the Score Changed card stays (docs/CONTRACT.md §3.1).
  static let cardLifetime = Duration.seconds(48 * 3600)

  public init() {}

  public func run(_ context: JobContext) async throws {
    let window = ScoreWindow(asOf: context.asOf)
    let batchSize = context.config.jobs[Self.self].batchSize
    let changes = try DailyScoreChanges.start(context, window: window)
    try context.forEachUserBatch(batchSize: batchSize, liveAt: window.end) { batch in
      let read = try DailyScoreInputs.read(
        batch, window: window, forced: context.fullPass, changes: changes)
      let results = read.inputs.mapValues(ScoreFormula.evaluate)
      let history = try DailyScoreQueries(tx: batch.tx).snapshotHistory(
        of: batch.userIDs, asOf: context.asOf, threshold: MilestoneRule.threshold,
        scores: results.mapValues(\.score))
      // The prompt state matters only to a user reaching the milestone for the first time.
      let reaching = batch.userIDs.filter { user in
        (results[user]?.score ?? .min) >= MilestoneRule.threshold
          && history[user]?.reachedThresholdBefore != true
      }
      let prompts = try DailyScoreQueries(tx: batch.tx).invitePromptStates(of: reaching)
      var writes = DailyScoreWrites()
      for user in batch.userIDs {
        guard let userInputs = read.inputs[user], let result = results[user] else { continue }
        record(
          user: user, inputs: userInputs, result: result, history: history[user] ?? SnapshotHistory(),
          prompts: prompts[user] ?? InvitePromptState(), batch: batch, context: context, into: &writes)
      }
      try writes.write(
        to: batch.tx, asOf: context.asOf, now: context.now, cardExpiresAt: context.now + Self.cardLifetime)
      try DailyScoreQueries(tx: batch.tx).putScoreTallies(read.talliesToKeep)
    }
    try changes.finish(context)
  }

  private func record(
    user: UserID, inputs: ScoreInputs, result: ScoreFormula.Result, history: SnapshotHistory,
    prompts: InvitePromptState,
    batch: UserBatch, context: JobContext, into writes: inout DailyScoreWrites
  ) {
    let delta = history.previousScore.map { result.score - $0 }
    let snapshot = ScoreSnapshotRow(
      userID: user, asOf: context.asOf, score: result.score, quality: result.components.quality,
      position: result.components.position, stability: result.components.stability,
      trust: result.components.trust, tier: result.tier, delta: delta,
      formulaVersion: ScoreFormula.version, computedAt: context.now)
    // Recorded whatever the snapshot: the first day reached stays known when history-retention
    // deletes it. A backfill to an earlier day records that day.
    if history.firstReachesThreshold {
      writes.milestonesReached.append((user, isNew: history.milestoneRecordedOn == nil))
    }
    guard snapshot != history.current else { return }
    writes.snapshots.append((snapshot, isNew: history.current == nil))
    // A backfill behind a later snapshot rewrites history without telling the user about it.
    guard !history.hasLaterSnapshot else { return }
    if let delta, delta != 0 {
      writes.scoreChanged.append(user)
      if context.outboxHorizon.admits(context.asOf) {
        writes.notifications.append(
          OutboxMessage(
            userID: user, kind: .scoreUpdated, deepLink: Notifications.scoreDeepLink,
            payload: #"{"score":\#(result.score),"delta":\#(delta)}"#,
            dedupeKey: Notifications.scoreUpdatedKey(user: user, asOf: context.asOf)))
      } else {
        batch.counts.addSkipped(SharedSkip.beforeOutboxWindow)
      }
    }
    let decision = MilestoneRule.decide(
      MilestoneRule.Facts(
        score: result.score, reachedBefore: history.reachedThresholdBefore,
        promptsShown: prompts.promptsShown,
        lastPromptAt: prompts.lastPromptAt, lastDismissedAt: prompts.lastDismissedAt,
        lastShareAt: prompts.lastShareAt, liveContacts: inputs.contacts, now: context.now))
    switch decision {
    case .queue: writes.milestonePrompts.append(user)
    case .suppressed(let why): batch.counts.addSkipped(DailyScoreCounter.milestonePromptSuppressed(why))
    case .notReached, .reachedBefore: break
    }
  }
}
