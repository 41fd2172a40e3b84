import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// What upcoming-birthdays decided about each owner of a batch, step by step: from what it
/// keeps (`judge`), then from the contacts stamped since (`examineStamped`). An owner with a
/// reason is examined; an owner left in `unstamped` keeps its rows.
struct UpcomingOwnerVerdicts {
  var reasons: [UserID: OwnerExamination] = [:]
  /// Each owner's local day and the state its rows are computed for tonight.
  var current: [UserID: (day: LocalDay, state: UpcomingOwnerState)] = [:]
  /// Owners whose rows hold unless a contact was stamped since, with what they keep.
  var unstamped: [UserID: UpcomingOwnerState] = [:]
  /// Owners whose date turned and nothing else differs: turned from their rows unless a
  /// contact was stamped since (asked with the unchanged owners, in one query).
  var turning: [UserID: UpcomingWindowTurn] = [:]

  /// Compares each owner's local date, zone, open reminders and settings with what was kept.
  static func judge(
    _ batch: UserBatch, now: UTCInstant, settings: UpcomingBirthdaysSettings, forced: Bool
  ) throws -> UpcomingOwnerVerdicts {
    let queries = UpcomingBirthdaysQueries(tx: batch.tx)
    var reminders: [UserID: [(id: Int64, contactID: ContactID, dueOn: String?)]] = [:]
    try queries.forEachOpenReminderAsWritten(of: batch.userIDs) { user, id, contact, dueOn in
      reminders[user, default: []].append((id, contact, dueOn))
    }
    var verdicts = UpcomingOwnerVerdicts()
    let stampsAfter = ChangeStamp.after(now: now, end: now)
    // Users share a few zones: each zone's date is looked up once per batch, not per user.
    var days: [String?: LocalDay] = [:]
    for (user, zone, stored) in try queries.upcomingOwners(of: batch.userIDs, states: !forced) {
      let day = days[zone] ?? LocalDay(at: now, zoneName: zone)
      days[zone] = day
      let digest = UpcomingOwnerState.digest(
        reminders: reminders[user] ?? [], windowDays: settings.windowDays,
        feb29: settings.feb29InCommonYears)
      let state = UpcomingOwnerState(
        today: day.date, zone: zone, inputsDigest: digest, stampsAfter: stampsAfter)
      verdicts.current[user] = (day, state)
      guard
        let reason = UpcomingOwnerState.examination(
          stored: stored, today: day.date, zone: zone, inputsDigest: digest, forced: forced)
      else {
        verdicts.unstamped[user] = stored
        continue
      }
      verdicts.reasons[user] = reason
      if reason == .due, let kept = stored,
        let turn = kept.turn(
          to: day.date, zone: zone, inputsDigest: digest, windowDays: settings.windowDays,
          feb29: settings.feb29InCommonYears)
      {
        verdicts.turning[user] = turn
        verdicts.unstamped[user] = kept
      }
    }
    return verdicts
  }

  /// Examines the owners with a contact stamped after their own instant.
  /// - Parameter candidates: the scope of the run's pass over the contacts' stamps: only the
  ///   owners it found are asked. Nil: every owner is.
  mutating func examineStamped(_ tx: StorageTransaction, candidates: String?) throws {
    var checked = unstamped
    if let scope = candidates, !unstamped.isEmpty {
      // Every contact stamped after an owner's instant is stamped after the pass's, so an owner
      // the pass did not find has none.
      let found = try tx.ownersChanged(among: Array(unstamped.keys), job: .upcomingBirthdays, scope: scope)
      checked = unstamped.filter { found.contains($0.key) }
    }
    for user in try UpcomingBirthdaysQueries(tx: tx).upcomingOwnersChanged(since: checked) {
      reasons[user] = .changed
      unstamped[user] = nil
      turning[user] = nil
    }
  }

  /// The batch's counts of owners read, unchanged, turned and examined (by reason).
  func count(in batch: UserBatch) {
    batch.counts.addRead(OwnerCounter.users, current.count)
    batch.counts.addRead(OwnerCounter.usersUnchanged, unstamped.count - turning.count)
    if !turning.isEmpty {
      batch.counts.addRead(UpcomingBirthdaysCounter.usersTurnedFromTheirRows, turning.count)
    }
    for (reason, count) in Dictionary(grouping: reasons.values, by: { $0 }).mapValues(\.count) {
      batch.counts.addRead(OwnerCounter.usersExamined(reason), count)
    }
  }
}
