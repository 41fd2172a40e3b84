import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// DESIGN.md §3.2: suggests live non-members for each circle whose members share a work
/// domain, a geographic area code or a family name. Works on the current state of the tables
/// (`--as-of` only labels the run). Writes `circle_suggestions` only; no notification.
public struct CirclePatternsJob: Job {
  public let name = JobName.circlePatterns

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs.circlePatterns
    let thresholds = CirclePatternThresholds(settings)
    let freeMail = FreeMailDomains(extra: settings.extraFreeMailDomains)
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      let inputs = try CirclePatternsInputs.read(
        batch, freeMail: freeMail, thresholds: thresholds, now: context.now)
      for user in batch.userIDs {
        try suggest(for: user, inputs: inputs, thresholds: thresholds, batch: batch, now: context.now)
      }
    }
  }

  /// Finds the user's groups and reconciles them with what is stored. A user without pattern
  /// circles is still reconciled when they have suggestions (their circle may be gone).
  private func suggest(
    for user: Int64, inputs: CirclePatternsInputs, thresholds: CirclePatternThresholds, batch: UserBatch,
    now: Int64
  ) throws {
    let circles = inputs.circlesByUser[user] ?? []
    let existing = inputs.suggestionsByUser[user] ?? []
    guard !circles.isEmpty || !existing.isEmpty else { return }
    let finder = CirclePatternFinder(
      contacts: circles.isEmpty ? [] : inputs.contacts(of: user), thresholds: thresholds)
    var detected: [CircleGroup] = []
    for circle in circles {
      let members = inputs.membersByCircle[circle] ?? []
      guard finder.liveMemberCount(members) >= thresholds.minMembers else {
        batch.counts.addSkipped("circle with fewer live members than min_members")
        continue
      }
      batch.counts.addRead("circles examined")
      detected += finder.groups(
        circleID: circle, memberIDs: members, removedIDs: inputs.removalsByCircle[circle] ?? [])
    }
    let plan = CircleSuggestionReconciler.plan(detected: detected, existing: existing)
    for id in plan.superseded { try batch.tx.supersedeCircleSuggestion(id: id) }
    for group in plan.inserts { try batch.tx.insertCircleSuggestion(group, userID: user, at: now) }
  }
}

extension CirclePatternThresholds {
  init(_ settings: CirclePatternsSettings) {
    self.init(
      emailDomainShare: settings.emailDomainShare, areaCodeShare: settings.areaCodeShare,
      familyNameShare: settings.familyNameShare, minMembers: settings.minMembers,
      minCandidates: settings.minCandidates)
  }
}
