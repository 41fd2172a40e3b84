import RinDomain
import RinRuntime
import RinStorage

/// Gathers one batch's `ScoreInputs` with a fixed number of queries, whatever the batch size:
/// contacts stream through a cursor and fold into per-user tallies.
enum DailyScoreInputs {
  static func read(_ batch: UserBatch, window: ScoreWindow) throws -> [Int64: ScoreInputs] {
    let tx = batch.tx
    let ids = batch.userIDs
    var inputs: [Int64: ScoreInputs] = [:]
    var createdAt: [Int64: Int64] = [:]
    for user in try tx.scoreUsers(ids) {
      var i = ScoreInputs()
      i.phoneVerified = user.phoneVerified
      i.tenureDays = window.tenureDays(userCreatedAt: user.createdAt)
      inputs[user.id] = i
      createdAt[user.id] = user.createdAt
    }
    var contactsRead = 0
    // Contacts mostly come user by user: tally in a local, stored back when the user changes,
    // rather than two dictionary lookups per contact.
    var user: Int64?
    var userCreated: Int64 = 0
    var tally = ScoreInputs()
    func storeTally() {
      if let user { inputs[user] = tally }
    }
    try tx.forEachScoreContact(of: ids, end: window.end) { owner, contact in
      if owner != user {
        storeTally()
        user = nil
        guard let created = createdAt[owner], let stored = inputs[owner] else { return }
        (user, userCreated, tally) = (owner, created, stored)
      }
      contactsRead += 1
      window.add(contact, userCreatedAt: userCreated, to: &tally)
    }
    storeTally()
    batch.counts.addRead("contacts", contactsRead)
    for (user, count) in try tx.customCircleCounts(of: ids, end: window.end) {
      inputs[user]?.customCircles = count
    }
    for (user, confidences) in try tx.pendingMergeConfidences(of: ids, createdBefore: window.end) {
      for confidence in confidences {
        switch MergeSuggestionBand.classify(confidence) {
        case .inBand: inputs[user]?.pendingDuplicates += 1
        case .outsideBand: break
        case .malformed: batch.counts.addSkipped("merge suggestion with malformed confidence")
        }
      }
    }
    for (user, count) in try tx.openSecurityItemCounts(of: ids, createdBefore: window.end) {
      inputs[user]?.openSecurityItems = count
    }
    batch.counts.addRead("users", inputs.count)
    return inputs
  }
}
