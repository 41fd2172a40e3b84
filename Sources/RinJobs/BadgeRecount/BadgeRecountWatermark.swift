import RinDomain
import RinRuntime
import RinStorage

/// What `rinjobs freshness` judges the badges by: badge-recount writes `badge_counts` only when
/// a count changes, so the rows alone cannot say a user was counted. A run that counted every
/// user of its shard from the first leaves the shard's change watermark instead, one row a scope
/// a night rather than one a user (`ChangeWatermark.after`: a `--user` or resumed run leaves
/// none). Bookkeeping, like a checkpoint: not a change of an output, so not in the run's changes;
/// a dry run's transaction is rolled back with the rest of it.
enum BadgeRecountWatermark {
  /// After the last batch. `verifiedThrough` is the run's `now`: what the badges reflect.
  static func leave(_ context: JobContext) throws {
    let (job, scope, now) = (context.job, context.userSelection.scope, context.now)
    let explicitUsers = context.userSelection.userIDs != nil
    let resumed = context.resumeAfterUserID != nil
    try context.write { tx in
      guard
        let mark = ChangeWatermark.after(
          run: now, windowEnd: now, stored: try tx.changeWatermark(job: job, scope: scope),
          explicitUsers: explicitUsers, resumed: resumed)
      else { return }
      try tx.putChangeWatermark(mark, job: job, scope: scope)
    }
  }
}
