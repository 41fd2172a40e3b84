/// How far a job has checked every owner of a shard for stamped changes: after a run that
/// walked all of them, every change stamped at or before `verifiedThrough` is reflected in what
/// the job keeps per owner. The next night then finds the owners to look at again in one pass
/// over the day's stamps (indexes keyed by stamp), instead of asking each owner in turn: a night
/// costs what changed, not how many owners there are (docs/SCORE.md "Every night costs what
/// changed").
public struct ChangeWatermark: Sendable, Equatable {
  /// No owner of the scope has a stamped change at or before this instant that the job's kept
  /// state does not reflect.
  public var verifiedThrough: UTCInstant
  /// The window end of the run that set it: a run for an earlier window (a backfill) neither
  /// uses it nor moves it.
  public var windowEnd: UTCInstant

  public init(verifiedThrough: UTCInstant, windowEnd: UTCInstant) {
    self.verifiedThrough = verifiedThrough
    self.windowEnd = windowEnd
  }

  /// How a run finds the owners whose stamps changed.
  public enum Finding: Equatable, Sendable {
    /// One pass over the changes stamped after this instant, for the whole shard, at the start.
    case changedSince(UTCInstant)
    /// Each owner's stamps, asked owner by owner (the first night of a shard, a list of users,
    /// a backfill, or while the stamp indexes are still to be built).
    case eachOwner
  }

  /// How a run for window `windowEnd` finds changed owners, given the scope's `stored` mark.
  /// - Parameters:
  ///   - explicitUsers: the run works on a list of users (`--user`), not a whole shard.
  ///   - stampIndexesReady: the indexes keyed by stamp exist (on PostgreSQL, `rinjobs migrate`
  ///     builds them on a database in use): without them the pass would read whole tables.
  public static func finding(
    stored: ChangeWatermark?, windowEnd: UTCInstant, explicitUsers: Bool, stampIndexesReady: Bool
  ) -> Finding {
    guard let stored, !explicitUsers, stampIndexesReady, windowEnd >= stored.windowEnd else {
      return .eachOwner
    }
    return .changedSince(stored.verifiedThrough)
  }

  /// The mark a run leaves when it ends, nil when it leaves the stored one. Only a run that
  /// walked every owner of the shard from the first (not resumed: the owners before the
  /// checkpoint were checked by another process at another clock) and whose window is not behind
  /// the mark moves it, to the instant its own examinations stamp (`ChangeStamp.after`).
  public static func after(
    run stampsAfter: UTCInstant, windowEnd: UTCInstant, stored: ChangeWatermark?, explicitUsers: Bool,
    resumed: Bool
  ) -> ChangeWatermark? {
    guard !explicitUsers, !resumed, windowEnd >= (stored?.windowEnd ?? .min) else { return nil }
    return ChangeWatermark(verifiedThrough: stampsAfter, windowEnd: windowEnd)
  }
}
