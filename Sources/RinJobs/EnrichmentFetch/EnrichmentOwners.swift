import RinDomain
import RinRuntime
import RinStorage

/// Which of a batch's owners enrichment-fetch examines tonight: those whose contacts changed
/// (`OwnerStamps`), whose region or settings changed, among whose contacts' numbers a verified
/// Rin user appeared, changed or left (`VerifiedUsersDigest` over `enrichment_owner_buckets`),
/// whose cached answers expire (`due_at`), those with a contact the periodic pass found changed
/// without a stamp (`PeriodicContactPass`), and everyone with `--full`. An owner left alone would get exactly the writes they already have
/// (docs/JOBS.md "A night looks only at what changed").
struct EnrichmentOwners: Sendable {
  /// The owners to examine, ascending.
  var examined: [UserID] = []
  /// Their contacts' stamps and region as read before the examination.
  var stamps: [UserID: OwnerStamps] = [:]
  /// Their `OwnerStamps.stampedRows`, summed tonight or as kept.
  var stampedRows: [UserID: Int64] = [:]
  var reasons: [OwnerExamination: Int] = [:]
  /// The examined owners whose only reason is the periodic pass.
  var periodic: Set<UserID> = []
  /// The batch's owners the periodic pass found (all examined), to forget once written.
  var foundByPass: Set<UserID> = []
  /// The examined owners whose contacts' checks can tell which contacts changed, so that
  /// their books may be read in part (`BookReads`): examined as `changed`, with the region and
  /// the parser of their last examination (every contact's check depends on them), nothing due
  /// and nothing found by the pass.
  var readableInPart: Set<UserID> = []
  /// The examined owners whose only change is that verified users in their buckets left
  /// (`VerifiedUsersDigest.digest(of:beforeDeparturesSince:)`), readable in part, with the
  /// contacts that were in those users' buckets (`OccupiedBuckets`): the only ones whose checks
  /// can differ. The rest of such a book is neither read nor its checks.
  var departuresOnly: [UserID: Set<ContactID>] = [:]
  /// What is kept of the `departuresOnly` owners as stored: their buckets (the same, since
  /// none of their contacts changed), the contacts in occupied buckets, and when they are due.
  var kept: [UserID: (buckets: Set<Int64>, occupied: OccupiedBuckets, dueAt: UTCInstant?)] = [:]
  /// Why each examined owner is examined, and when it was last.
  var reasonOf: [UserID: OwnerExamination] = [:]
  var lastExaminedAt: [UserID: UTCInstant] = [:]
  var unchanged = 0

  static func select(
    _ ids: [UserID], recheck: RecheckRule, changes: OwnerChanges, context: JobContext
  ) throws -> EnrichmentOwners {
    let job = context.job
    let (stamps, stored, buckets, found, summed) = try context.read { tx in
      let stored = try tx.ownerExaminations(job: job, of: ids)
      let summed = try changes.owners(toSum: ids, stored: stored, job: job, tx: tx)
      return (
        try tx.ownerStamps(of: ids, rowsOf: summed, circles: false), stored,
        try EnrichmentQueries(tx: tx).enrichmentOwnerBuckets(of: ids),
        try tx.ownersFoundByPass(job: job, among: ids),
        Set(summed)
      )
    }
    var owners = EnrichmentOwners()
    owners.foundByPass = found
    for user in ids {
      var owner = stamps[user, default: OwnerStamps()]
      owner.related = recheck.verified.digest(of: buckets[user]?.buckets ?? [])
      let stampedRows = summed.contains(user) ? owner.stampedRows : stored[user]?.stampedRows ?? 0
      let reason = OwnerExamination.reason(
        stored: stored[user], fingerprint: owner.fingerprint(stampedRows, settings: recheck.settingsDigest),
        now: context.now, foundByPass: found.contains(user), forced: context.fullPass)
      guard let reason else {
        owners.unchanged += 1
        continue
      }
      owners.examined.append(user)
      owners.stamps[user] = owner
      owners.stampedRows[user] = stampedRows
      owners.reasons[reason, default: 0] += 1
      if reason == .periodic { owners.periodic.insert(user) }
      if reason == .changed, !found.contains(user), let before = stored[user],
        before.regionDigest == recheck.regionDigest(owner.region),
        before.dueAt.map({ $0 > context.now }) ?? true
      {
        owners.readableInPart.insert(user)
        // Its unread contacts must not expire before its next visit, as the in-part path asks of
        // each unread check; every one expires at or after the owner's due time. (That time is
        // a visit day's start: usually the next visit's, so `>` would rule most owners out.)
        if let kept = buckets[user], let occupied = kept.occupied,
          before.dueAt.map({ $0 >= recheck.horizon(owner: user) }) ?? true
        {
          // A departure stamped within the margin before the examination may have been
          // counted live by it, or not: taken as live, a mismatch sends the owner the usual way.
          let since = ChangeStamp.after(now: before.examinedAt, end: before.examinedAt)
          var earlier = owner
          earlier.related = recheck.verified.digest(of: kept.buckets, beforeDeparturesSince: since)
          if earlier.fingerprint(stampedRows, settings: recheck.settingsDigest) == before.fingerprint {
            owners.departuresOnly[user] = occupied.contacts(
              in: recheck.verified.bucketsLeft(in: kept.buckets, since: since))
            owners.kept[user] = (Set(kept.buckets), occupied, before.dueAt)
          }
        }
      }
      owners.reasonOf[user] = reason
      owners.lastExaminedAt[user] = stored[user]?.examinedAt
    }
    return owners
  }

  /// A window's ids cut after every `examinedPerBatch`-th examined owner, in order: each batch
  /// examines at most that many owners (their contacts are read, normalized and looked up
  /// together), however many unchanged owners lie between them.
  func batches(of ids: [UserID], examinedPerBatch: Int) -> [ArraySlice<UserID>] {
    var batches: [ArraySlice<UserID>] = []
    var start = ids.startIndex
    var examinedInBatch = 0
    for index in ids.indices where reasonOf[ids[index]] != nil {
      examinedInBatch += 1
      guard examinedInBatch == max(1, examinedPerBatch) else { continue }
      batches.append(ids[start...index])
      start = index + 1
      examinedInBatch = 0
    }
    if start < ids.endIndex { batches.append(ids[start...]) }
    return batches
  }

  /// The part of a window's selection that concerns `ids`, one of its `batches`.
  func restricted(to ids: ArraySlice<UserID>) -> EnrichmentOwners {
    let batch = Set(ids)
    var owners = EnrichmentOwners()
    owners.examined = examined.filter(batch.contains)
    for user in owners.examined {
      owners.stamps[user] = stamps[user]
      owners.stampedRows[user] = stampedRows[user]
      owners.reasonOf[user] = reasonOf[user]
      owners.lastExaminedAt[user] = lastExaminedAt[user]
      if let reason = reasonOf[user] { owners.reasons[reason, default: 0] += 1 }
    }
    owners.periodic = periodic.intersection(batch)
    owners.readableInPart = readableInPart.intersection(batch)
    owners.departuresOnly = departuresOnly.filter { batch.contains($0.key) }
    owners.kept = kept.filter { batch.contains($0.key) }
    owners.foundByPass = foundByPass.intersection(batch)
    owners.unchanged = ids.count - owners.examined.count
    return owners
  }

  /// What to remember of the examined owners: the fingerprint of their stamps with the
  /// verified users of their contacts' numbers as the examination found them, and when they are
  /// next due: the visit (`RefreshPhase`) before the earliest cached answer of their contacts
  /// expires.
  func records(
    buckets: [UserID: Set<Int64>], dueAt: [UserID: UTCInstant], recheck: RecheckRule, now: UTCInstant
  ) -> [(userID: UserID, examination: StoredOwnerExamination)] {
    examined.map { user in
      var owner = stamps[user, default: OwnerStamps()]
      owner.related = recheck.verified.digest(of: buckets[user] ?? [])
      let stampedRows = stampedRows[user] ?? owner.stampedRows
      var due = dueAt[user].map { recheck.due(owner: user, expiry: $0) }
      // Its unread contacts' expiries are not known, only the due time they gave before.
      if let kept = kept[user], let before = kept.dueAt { due = min(due ?? before, before) }
      return (
        user,
        StoredOwnerExamination(
          fingerprint: owner.fingerprint(stampedRows, settings: recheck.settingsDigest), examinedAt: now,
          dueAt: due, stampedRows: stampedRows, regionDigest: recheck.regionDigest(owner.region))
      )
    }
  }

  /// The digests to store of the examined owners' contacts read (`storesDigest`).
  func digestsToStore(_ rows: [EnrichmentContactRow]) -> [ContactDigest] {
    rows.compactMap { row in
      guard let reason = reasonOf[row.userID],
        reason.storesDigest(ofContactStamped: row.stamp, lastExaminedAt: lastExaminedAt[row.userID])
      else { return nil }
      return ContactDigest(contactID: row.id, userID: row.userID, digest: row.digest)
    }
  }
}

extension OwnerStamps {
  /// The fingerprint with `stampedRows` for the stamped tables' part (summed tonight or kept).
  fileprivate func fingerprint(_ stampedRows: Int64, settings: Int64) -> Int64 {
    Self.fingerprint(
      stampedRows: stampedRows, circles: circles, region: region, related: related, settings: settings)
  }
}
