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
  var examined: [Int64] = []
  /// Their contacts' stamps and region as read before the examination.
  var stamps: [Int64: OwnerStamps] = [:]
  var reasons: [OwnerExamination: Int] = [:]
  /// The examined owners whose only reason is the periodic pass.
  var periodic: Set<Int64> = []
  /// The batch's owners the periodic pass found (all examined), to forget once written.
  var foundByPass: Set<Int64> = []
  /// Why each examined owner is examined, and when it was last.
  var reasonOf: [Int64: OwnerExamination] = [:]
  var lastExaminedAt: [Int64: UTCInstant] = [:]
  var unchanged = 0

  static func select(
    _ ids: [Int64], recheck: RecheckRule, context: JobContext
  ) throws -> EnrichmentOwners {
    let job = context.job
    let (stamps, stored, buckets, found) = try context.read { tx in
      (
        try tx.ownerStamps(of: ids, circles: false), try tx.ownerExaminations(job: job, of: ids),
        try tx.enrichmentOwnerBuckets(of: ids), try tx.ownersFoundByPass(job: job, among: ids)
      )
    }
    var owners = EnrichmentOwners()
    owners.foundByPass = found
    for user in ids {
      var owner = stamps[user, default: OwnerStamps()]
      owner.related = recheck.verified.digest(of: buckets[user] ?? [])
      let reason = OwnerExamination.reason(
        stored: stored[user], fingerprint: owner.fingerprint(settings: recheck.settingsDigest),
        now: context.now, foundByPass: found.contains(user), forced: context.fullPass)
      guard let reason else {
        owners.unchanged += 1
        continue
      }
      owners.examined.append(user)
      owners.stamps[user] = owner
      owners.reasons[reason, default: 0] += 1
      if reason == .periodic { owners.periodic.insert(user) }
      owners.reasonOf[user] = reason
      owners.lastExaminedAt[user] = stored[user]?.examinedAt
    }
    return owners
  }

  /// What to remember of the examined owners: the fingerprint of their stamps with the
  /// verified users of their contacts' numbers as the examination found them, and when the
  /// earliest cached answer of their contacts expires.
  func records(
    buckets: [Int64: Set<Int64>], dueAt: [Int64: UTCInstant], recheck: RecheckRule, now: UTCInstant
  ) -> [(userID: Int64, examination: StoredOwnerExamination)] {
    examined.map { user in
      var owner = stamps[user, default: OwnerStamps()]
      owner.related = recheck.verified.digest(of: buckets[user] ?? [])
      return (
        user,
        StoredOwnerExamination(
          fingerprint: owner.fingerprint(settings: recheck.settingsDigest), examinedAt: now,
          dueAt: dueAt[user])
      )
    }
  }

  /// The digests to store of the examined owners' contacts read (`storesDigest`).
  func digestsToStore(_ rows: [EnrichmentContactRow]) -> [(contactID: Int64, digest: Int64)] {
    rows.compactMap { row in
      guard let reason = reasonOf[row.userID],
        reason.storesDigest(ofContactStamped: row.stamp, lastExaminedAt: lastExaminedAt[row.userID])
      else { return nil }
      return (row.id, row.digest)
    }
  }
}
