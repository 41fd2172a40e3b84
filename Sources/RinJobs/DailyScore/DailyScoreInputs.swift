import RinDomain
import RinRuntime
import RinStorage

/// Gathers one batch's `ScoreInputs` with a fixed number of queries, whatever the batch size.
///
/// What an owner's contacts count (`ScoreTally`) is kept between nights: only the owners whose
/// tally can differ have their contacts read (docs/SCORE.md "Every night costs what changed").
/// The rest of the inputs (the user row, merge suggestions, security items) are a few rows per
/// owner and are read for everyone every night.
struct DailyScoreInputs {
  var inputs: [UserID: ScoreInputs] = [:]
  /// The tallies of the owners examined tonight, to keep.
  var talliesToKeep: [ScoreTallyRow] = []

  static func read(
    _ batch: UserBatch, window: ScoreWindow, forced: Bool, changes: DailyScoreChanges
  ) throws -> DailyScoreInputs {
    let tx = batch.tx
    let ids = batch.userIDs
    var result = DailyScoreInputs()
    let users = try DailyScoreQueries(tx: tx).scoreUsers(ids)
    let (tallies, toKeep) = try currentTallies(
      batch, users: users, window: window, forced: forced, changes: changes)
    result.talliesToKeep = toKeep
    for user in users {
      guard let tally = tallies[user.id] else { continue }
      var i = tally.inputs(at: window)
      i.phoneVerified = user.phoneVerified
      i.tenureDays = window.tenureDays(userCreatedAt: user.createdAt)
      result.inputs[user.id] = i
    }
    for (user, confidences) in try DailyScoreQueries(tx: tx).pendingMergeConfidences(
      of: ids, createdBefore: window.end)
    {
      for confidence in confidences {
        switch MergeSuggestionBand.classify(confidence) {
        case .inBand: result.inputs[user]?.pendingDuplicates += 1
        case .outsideBand: break
        case .malformed: batch.counts.addSkipped(SharedSkip.mergeSuggestionWithMalformedConfidence)
        }
      }
    }
    for (user, count) in try DailyScoreQueries(tx: tx).openSecurityItemCounts(
      of: ids, createdBefore: window.end)
    {
      result.inputs[user]?.openSecurityItems = count
    }
    batch.counts.addRead(OwnerCounter.users, result.inputs.count)
    return result
  }

  /// Each user's tally at `window`: kept where it holds, counted from the contacts where not.
  private static func currentTallies(
    _ batch: UserBatch, users: [ScoreUserRow], window: ScoreWindow, forced: Bool, changes: DailyScoreChanges
  ) throws -> (tallies: [UserID: ScoreTally], toKeep: [ScoreTallyRow]) {
    let tx = batch.tx
    let ids = users.map(\.id)
    let stored = forced ? [:] : try DailyScoreQueries(tx: tx).scoreTallies(of: ids)
    let digests = try DailyScoreQueries(tx: tx).circlesDigests(of: ids)
    var reasons: [UserID: OwnerExamination] = [:]
    var unstamped: [UserID: StoredScoreTally] = [:]
    for id in ids {
      let kept = stored[id]
      if let reason = ScoreTally.examination(
        stored: kept?.tally, circlesMatch: kept?.circlesDigest == digests[id, default: 0], at: window.end,
        forced: forced)
      {
        reasons[id] = reason
      } else if let kept {
        unstamped[id] = kept
      }
    }
    for id in try changes.changed(among: unstamped, in: tx) {
      reasons[id] = .changed
      unstamped[id] = nil
    }
    var tallies = unstamped.mapValues(\.tally)
    batch.counts.addRead(OwnerCounter.usersUnchanged, tallies.count)
    for (reason, count) in Dictionary(grouping: reasons.values, by: { $0 }).mapValues(\.count) {
      batch.counts.addRead(OwnerCounter.usersExamined(reason), count)
    }
    let examined = ids.filter { reasons[$0] != nil }
    guard !examined.isEmpty else { return (tallies, []) }
    try count(examined, users: users, end: window.end, into: &tallies, batch: batch)
    let stampsAfter = changes.stampsAfter
    // A backfill behind the kept tally leaves it: tomorrow's night starts from the later one.
    var toKeep: [ScoreTallyRow] = []
    for id in examined where stored[id].map({ window.end >= $0.tally.end }) ?? true {
      guard let tally = tallies[id] else { continue }
      toKeep.append(
        ScoreTallyRow(
          userID: id,
          stored: StoredScoreTally(
            tally: tally, stampsAfter: stampsAfter, circlesDigest: digests[id, default: 0])))
    }
    return (tallies, toKeep)
  }

  /// Reads the contacts of `owners` and counts them.
  private static func count(
    _ owners: [UserID], users: [ScoreUserRow], end: UTCInstant, into tallies: inout [UserID: ScoreTally],
    batch: UserBatch
  ) throws {
    var createdAt: [UserID: UTCInstant] = [:]
    for user in users { createdAt[user.id] = user.createdAt }
    for owner in owners { tallies[owner] = ScoreTally(end: end) }
    var contactsRead = 0
    // Contacts come owner by owner: tally in a local, stored back when the owner changes,
    // rather than two dictionary lookups per contact.
    var owner: UserID?
    var ownerCreated: UTCInstant = 0
    var tally = ScoreTally(end: end)
    func storeTally() {
      if let owner { tallies[owner] = tally }
    }
    try DailyScoreQueries(tx: batch.tx).forEachScoreContact(of: owners, end: end) { user, contact in
      if user != owner {
        storeTally()
        owner = nil
        guard let created = createdAt[user], let stored = tallies[user] else { return }
        (owner, ownerCreated, tally) = (user, created, stored)
      }
      contactsRead += 1
      tally.add(contact, userCreatedAt: ownerCreated)
    }
    storeTally()
    batch.counts.addRead(OwnerCounter.contacts, contactsRead)
    for (user, count) in try DailyScoreQueries(tx: batch.tx).customCircleCounts(of: owners, end: end) {
      tallies[user]?.customCircles = count
    }
  }
}
