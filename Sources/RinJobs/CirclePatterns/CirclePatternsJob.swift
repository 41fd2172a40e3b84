import RinConfiguration
import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.2: suggests live non-members for each circle whose members share a work
/// domain, a geographic area code or a family name. Works on the current state of the tables
/// (`--as-of` only labels the run). Writes `circle_suggestions` only; no notification.
///
/// Examines only the owners whose inputs may have changed since it last examined them
/// (`OwnerStamps`), every owner once `full_every` has passed, and everyone with `--full`:
/// an owner whose inputs did not change would get the same groups again (docs/JOBS.md "What
/// counts as a change").
public struct CirclePatternsJob: Job {
  public typealias Settings = CirclePatternsSettings
  public typealias Details = NoDetails
  public static let name = JobName.circlePatterns

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs[Self.self]
    let thresholds = CirclePatternThresholds(settings)
    let freeMail = FreeMailDomains(extra: settings.extraFreeMailDomains)
    let settingsDigest = Self.settingsDigest(thresholds: thresholds, freeMail: freeMail)
    try PeriodicContactPass.run(fullEvery: settings.fullEvery, context: context)
    let changes = try OwnerChanges.start(context)
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      batch.counts.addRead(OwnerCounter.users, batch.userIDs.count)
      let stored = try batch.tx.ownerExaminations(job: name, of: batch.userIDs)
      let summed = try changes.owners(toSum: batch.userIDs, stored: stored, job: name, tx: batch.tx)
      let stamps = try batch.tx.ownerStamps(of: batch.userIDs, rowsOf: summed, circles: true)
      let found = try batch.tx.ownersFoundByPass(job: name, among: batch.userIDs)
      var examined: [(userID: UserID, examination: StoredOwnerExamination)] = []
      var periodic: Set<UserID> = []
      var reasons: [UserID: OwnerExamination] = [:]
      let isSummed = Set(summed)
      for user in batch.userIDs {
        let owner = stamps[user, default: OwnerStamps()]
        let stampedRows = isSummed.contains(user) ? owner.stampedRows : stored[user]?.stampedRows ?? 0
        let fingerprint = OwnerStamps.fingerprint(
          stampedRows: stampedRows, circles: owner.circles, region: owner.region, related: owner.related,
          settings: settingsDigest)
        guard
          let reason = OwnerExamination.reason(
            stored: stored[user], fingerprint: fingerprint, now: context.now,
            foundByPass: found.contains(user), forced: context.fullPass)
        else { continue }
        batch.counts.addRead(OwnerCounter.usersExamined(reason))
        if reason == .periodic { periodic.insert(user) }
        reasons[user] = reason
        examined.append(
          (
            user,
            StoredOwnerExamination(
              fingerprint: fingerprint, examinedAt: context.now, stampedRows: stampedRows)
          ))
      }
      batch.counts.addRead(OwnerCounter.usersUnchanged, batch.userIDs.count - examined.count)
      batch.counts.addUnstampedCorrections(0)
      guard !examined.isEmpty else { return }
      let users = examined.map(\.userID)
      let inputs = try CirclePatternsInputs.read(
        batch, users: users, freeMail: freeMail, thresholds: thresholds)
      for user in users {
        let changed = try suggest(
          for: user, inputs: inputs, thresholds: thresholds, batch: batch, now: context.now)
        // Nothing the services stamped moved for this owner, yet their suggestions did.
        if changed && periodic.contains(user) { batch.counts.addUnstampedCorrections(1) }
      }
      try CirclePatternsQueries(tx: batch.tx).saveCirclePatternsState(
        evidence: inputs.evidenceToStore,
        digests: inputs.digestsToStore(reasons: reasons, lastExaminedAt: stored.mapValues(\.examinedAt)))
      try batch.tx.saveOwnerExaminations(job: name, examined)
      try batch.tx.forgetOwnersFoundByPass(job: name, found)
    }
    try changes.finish(context)
  }

  /// Everything besides an owner's rows that their groups depend on: a change of any of these
  /// makes every owner's fingerprint differ, so the next night examines everyone.
  static func settingsDigest(thresholds: CirclePatternThresholds, freeMail: FreeMailDomains) -> Int64 {
    OwnerStamps.settingsDigest(
      [
        String(thresholds.emailDomainShare), String(thresholds.areaCodeShare),
        String(thresholds.familyNameShare), String(thresholds.minMembers), String(thresholds.minCandidates),
        String(DomainName.suffixListDigest), String(PhoneNormalizer.metadataDigest),
      ] + freeMail.entries)
  }

  /// Finds the user's groups and reconciles them with what is stored. A user without pattern
  /// circles is still reconciled when they have suggestions (their circle may be gone).
  /// Returns whether it wrote anything.
  @discardableResult
  private func suggest(
    for user: UserID, inputs: CirclePatternsInputs, thresholds: CirclePatternThresholds, batch: UserBatch,
    now: UTCInstant
  ) throws -> Bool {
    let circles = inputs.circlesByUser[user] ?? []
    let existing = inputs.suggestionsByUser[user] ?? []
    guard !circles.isEmpty || !existing.isEmpty else { return false }
    let finder = CirclePatternFinder(
      contacts: circles.isEmpty ? [] : inputs.contacts(of: user), thresholds: thresholds)
    var detected: [CircleGroup] = []
    for circle in circles {
      let members = inputs.membersByCircle[circle] ?? []
      guard finder.liveMemberCount(members) >= thresholds.minMembers else {
        batch.counts.addSkipped(CirclePatternsCounter.circleBelowMinMembers)
        continue
      }
      batch.counts.addRead(CirclePatternsCounter.circlesExamined)
      detected += finder.groups(
        circleID: circle, memberIDs: members, removedIDs: inputs.removalsByCircle[circle] ?? [])
    }
    let plan = CircleSuggestionReconciler.plan(detected: detected, existing: existing)
    let queries = CirclePatternsQueries(tx: batch.tx)
    for id in plan.superseded { try queries.supersedeCircleSuggestion(id: id, at: now) }
    for group in plan.inserts { try queries.insertCircleSuggestion(group, userID: user, at: now) }
    return !plan.superseded.isEmpty || !plan.inserts.isEmpty
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
