import RinDomain
import RinRuntime
import RinStorage

/// How a daily-score run finds the owners whose stamped rows changed since their tally
/// (`ChangeWatermark`): after a night that checked every owner of the shard, one pass over the
/// stamps at the start of the run; otherwise each owner asked in each batch, through indexes
/// keyed by owner or circle.
struct DailyScoreChanges {
  let scope: String
  let finding: ChangeWatermark.Finding
  let stored: ChangeWatermark?
  let explicitUsers: Bool
  /// What tonight's examinations stamp their tallies with, and the mark the run leaves.
  let stampsAfter: UTCInstant
  let windowEnd: UTCInstant

  static func start(_ context: JobContext, window: ScoreWindow) throws -> DailyScoreChanges {
    let selection = context.userSelection
    let scope = selection.scope
    let explicitUsers = selection.userIDs != nil
    let stored = try context.read { try $0.changeWatermark(job: .dailyScore, scope: scope) }
    let finding =
      context.fullPass
      ? .eachOwner
      : ChangeWatermark.finding(
        stored: stored, windowEnd: window.end, explicitUsers: explicitUsers,
        stampIndexesReady: context.storage.stampIndexesReady)
    let changes = DailyScoreChanges(
      scope: scope, finding: finding, stored: stored, explicitUsers: explicitUsers,
      stampsAfter: ChangeStamp.after(now: context.now, end: window.end), windowEnd: window.end)
    if case .changedSince(let since) = finding {
      let found = try context.write {
        try $0.collectOwnersChanged(since: since, job: .dailyScore, scope: scope, in: selection)
      }
      context.addRead(OwnerCounter.ownersWithChangesStampedSinceTheLastNight, found)
    }
    return changes
  }

  /// The owners among `tallies` with a row stamped after their tally.
  func changed(among tallies: [UserID: StoredScoreTally], in tx: StorageTransaction) throws -> Set<UserID> {
    switch finding {
    case .changedSince:
      // Every tally reflects the stamps up to the mark (the mark's run checked its owner), so
      // the pass's owners are those with a later one.
      try tx.ownersChanged(among: Array(tallies.keys), job: .dailyScore, scope: scope)
    case .eachOwner:
      try DailyScoreQueries(tx: tx).ownersChanged(since: tallies)
    }
  }

  /// After the last batch: the run checked every owner of the shard, so it leaves its mark.
  func finish(_ context: JobContext) throws {
    guard
      let mark = ChangeWatermark.after(
        run: stampsAfter, windowEnd: windowEnd, stored: stored, explicitUsers: explicitUsers,
        resumed: context.resumeAfterUserID != nil)
    else { return }
    try context.write { try $0.putChangeWatermark(mark, job: .dailyScore, scope: scope) }
  }
}
