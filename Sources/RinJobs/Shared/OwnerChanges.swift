import RinDomain
import RinRuntime
import RinStorage

/// Which owners of a run had a row stamped since the job last checked them all (circle-patterns,
/// enrichment-fetch): as daily-score does (`DailyScoreChanges`), after a night that walked every
/// owner of the shard, one pass over the stamp indexes at the start of the run finds them
/// (`collectOwnersChanged`), so that a night sums the stamped rows (`OwnerStamps`) of those owners
/// only. The others' sums are as their last examination kept them (`stampedRows`). Without a mark
/// (the first night of a shard, `--user`, stamp indexes still to be built) every owner's rows are
/// summed, as before.
struct OwnerChanges {
  let scope: String
  let finding: ChangeWatermark.Finding
  let stored: ChangeWatermark?
  let explicitUsers: Bool
  let stampsAfter: UTCInstant

  static func start(_ context: JobContext) throws -> OwnerChanges {
    let selection = context.userSelection
    let (job, scope, now) = (context.job, selection.scope, context.now)
    let stored = try context.read { try $0.changeWatermark(job: job, scope: scope) }
    let finding =
      context.fullPass
      ? .eachOwner
      : ChangeWatermark.finding(
        stored: stored, windowEnd: now, explicitUsers: selection.userIDs != nil,
        stampIndexesReady: context.storage.stampIndexesReady)
    if case .changedSince(let since) = finding {
      let found = try context.write {
        try $0.collectOwnersChanged(since: since, job: job, scope: scope, in: selection)
      }
      context.addRead(OwnerCounter.ownersWithChangesStampedSinceTheLastNight, found)
    }
    return OwnerChanges(
      scope: scope, finding: finding, stored: stored, explicitUsers: selection.userIDs != nil,
      stampsAfter: ChangeStamp.after(now: now, end: now))
  }

  /// The owners of `ids` whose stamped rows must be summed tonight: those the pass found, and
  /// those whose examination kept no sums; all of them without a mark.
  func owners(
    toSum ids: [UserID], stored: [UserID: StoredOwnerExamination], job: JobName, tx: StorageTransaction
  ) throws -> [UserID] {
    guard case .changedSince = finding else { return ids }
    let changed = try tx.ownersChanged(among: ids, job: job, scope: scope)
    return ids.filter { changed.contains($0) || stored[$0]?.stampedRows == nil }
  }

  /// After the last batch: a run that walked every owner of the shard leaves its mark.
  func finish(_ context: JobContext) throws {
    guard
      let mark = ChangeWatermark.after(
        run: stampsAfter, windowEnd: context.now, stored: stored, explicitUsers: explicitUsers,
        resumed: context.resumeAfterUserID != nil)
    else { return }
    let (job, scope) = (context.job, scope)
    try context.write { try $0.putChangeWatermark(mark, job: job, scope: scope) }
  }
}
