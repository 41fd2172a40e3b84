import RinDomain
import RinRuntime
import RinStorage

/// The periodic pass of a job that examines only changed owners (circle-patterns,
/// enrichment-fetch), run before its batches: it reads tonight's blocks of contact ids
/// (`PeriodicPass`) on the server, and leaves the owners of the contacts whose digest differs
/// from the one stored at their last examination in `periodic_pass_owners`, where the owner's
/// batch finds them (this run's, or the next run's when another shard's batch had already gone
/// by). Such a difference is a change the services did not stamp: every stamped one sends its
/// owner to an examination anyway, which stores the digest of what it read
/// (`ContactDigests.toStore`).
enum PeriodicContactPass {
  /// Blocks read per transaction: a transaction stays short whatever the night's share.
  static let blocksPerTransaction: Int64 = 8

  /// Runs the pass for `context`'s scope with the period `fullEvery`.
  static func run(fullEvery: Duration, context: JobContext) throws {
    let selection = context.userSelection
    // `--user` runs examine their owners by their stamps; the pass belongs to whole runs.
    guard selection.userIDs == nil else { return }
    let (job, scope, now) = (context.job, selection.scope, context.now)
    let stored = try context.read { try $0.periodicPassState(job: job, scope: scope) }
    // The first pass only starts the clock: every owner is new then, and its examination
    // stores every digest. `--full` examines every owner, so nothing is left for the pass.
    guard let state = stored, !context.fullPass else {
      let state = PeriodicPassState(passedAt: now, startedAt: stored?.startedAt ?? now)
      try context.write { try $0.savePeriodicPass(state, job: job, scope: scope) }
      return
    }
    let maxContactID = try context.read { try $0.maxContactID() }
    let ranges = PeriodicPass.rangesDue(
      maxContactID: maxContactID, passedAt: state.passedAt, now: now, period: fullEvery,
      shard: selection.shard.map { ($0.index, $0.count) })
    // A database that kept its owners' examinations from before the pass has no digests: for
    // the first period a contact without one is given one instead of sending its owner to an
    // examination (which would be every owner, every night of that period). A run whose
    // blocks include some read for the first time counts as the first period's.
    let baseline = state.passedAt < state.startedAt.advanced(by: fullEvery.wholeSeconds)
    var tally = Tally()
    for range in ranges.flatMap(Self.transactions) {
      // Stopped: the pass is not recorded, so the next run reads these blocks again.
      guard !context.isStopRequested else { return tally.report(to: context) }
      try context.write { tx in
        let (contacts, differing) = try tx.contactsDifferingFromDigests(job: job, ids: range)
        let first = baseline ? differing.filter { !$0.hadDigest } : []
        let changed = Set(differing.filter { !baseline || $0.hadDigest }.map(\.userID))
        try tx.putContactDigests(
          job: job, first.map { ContactDigest(contactID: $0.contactID, userID: $0.userID, digest: $0.digest) }
        )
        // A contact deleted outright (not by the contract) leaves its digest: its owner too.
        let owners = changed.union(try tx.forgetDigestsOfRemovedContacts(job: job, ids: range))
        try tx.queueOwnersFoundByPass(job: job, owners)
        tally.add(contacts: contacts, differing: differing.count - first.count, owners: owners.count)
      }
    }
    try context.write {
      try $0.savePeriodicPass(
        PeriodicPassState(passedAt: now, startedAt: state.startedAt), job: job, scope: scope)
    }
    tally.report(to: context)
  }

  /// `range` cut into pieces of at most `blocksPerTransaction` blocks.
  static func transactions(_ range: Range<Int64>) -> [Range<Int64>] {
    let step = blocksPerTransaction * PeriodicPass.blockSize
    return stride(from: range.lowerBound, to: range.upperBound, by: Int(step)).map {
      $0..<min($0 + step, range.upperBound)
    }
  }

  private struct Tally {
    var contacts = 0
    var differing = 0
    var owners = 0

    mutating func add(contacts: Int, differing: Int, owners: Int) {
      self.contacts += contacts
      self.differing += differing
      self.owners += owners
    }

    func report(to context: JobContext) {
      context.addRead("contacts passed", contacts)
      context.addRead("contacts passed that differ from their digest", differing)
      context.addRead("users found by the pass", owners)
    }
  }
}
