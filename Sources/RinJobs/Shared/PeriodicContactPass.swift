import RinConfiguration
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
///
/// The two jobs' digests share most of their terms (numbers and addresses), so the first of
/// them to run on a night passes for both when the other's pass stands where its own does (same
/// scope, same last pass, same `full_every`): each block is read once a night, not twice. The
/// other job then finds its blocks passed and goes straight to its batches, where the owners
/// left for it wait (docs/JOBS.md "The periodic pass").
enum PeriodicContactPass {
  /// Blocks read per transaction: a transaction stays short whatever the night's share.
  static let blocksPerTransaction: Int64 = 8

  /// The jobs that keep digests for the pass, and their period in `config`.
  static func period(of job: JobName, in config: RinConfig) -> Duration? {
    switch job {
    case .circlePatterns: config.jobs[CirclePatternsJob.self].fullEvery
    case .enrichmentFetch: config.jobs[EnrichmentFetchJob.self].fullEvery
    default: nil
    }
  }

  /// One job's part in tonight's pass.
  private struct JobPass {
    var job: JobName
    var state: PeriodicPassState
    /// A database that kept its owners' examinations from before the pass has no digests: for
    /// the first period a contact without one is given one instead of sending its owner to an
    /// examination (which would be every owner, every night of that period).
    var baseline: Bool

    init(job: JobName, state: PeriodicPassState, fullEvery: Duration) {
      self.job = job
      self.state = state
      baseline = state.passedAt < state.startedAt.advanced(by: fullEvery.wholeSeconds)
    }
  }

  /// Runs the pass for `context`'s scope with the period `fullEvery`, and for the other job
  /// whose pass stands where this one does.
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
    let passes =
      try [JobPass(job: job, state: state, fullEvery: fullEvery)]
      + context.read { tx in
        try partners(
          of: job, state: state, fullEvery: fullEvery, scope: scope, config: context.config, tx: tx)
      }
    let jobs = passes.map(\.job)
    if passes.count > 1 {
      context.logger.info(
        "periodic pass: passing for \(jobs.dropFirst().map(\.rawValue).joined(separator: ", ")) too (same scope, last pass and full_every)"
      )
    }
    let maxContactID = try context.read { try $0.maxContactID() }
    let ranges = PeriodicPass.rangesDue(
      maxContactID: maxContactID, passedAt: state.passedAt, now: now, period: fullEvery,
      shard: selection.shard.part)
    var tally = Tally()
    for range in ranges.flatMap(Self.transactions) {
      // Stopped: the pass is not recorded, so the next run reads these blocks again.
      guard !context.isStopRequested else { return tally.report(to: context, jobs: jobs) }
      try context.write { tx in
        let passed = try tx.contactsDifferingFromDigests(jobs: jobs, ids: range)
        // A contact deleted outright (not by the contract) leaves its digest: its owner too.
        let removed = try tx.forgetDigestsOfRemovedContacts(jobs: jobs, ids: range)
        tally.contacts += passed.contacts
        for pass in passes {
          let differing = passed.differing[pass.job] ?? []
          let first = pass.baseline ? differing.filter { !$0.hadDigest } : []
          let changed = Set(differing.filter { !pass.baseline || $0.hadDigest }.map(\.userID))
          try tx.putContactDigests(job: pass.job, first.map(\.digest))
          let owners = changed.union(removed[pass.job] ?? [])
          try tx.queueOwnersFoundByPass(job: pass.job, owners)
          tally.add(pass.job, differing: differing.count - first.count, owners: owners.count)
        }
      }
    }
    try context.write { tx in
      for pass in passes {
        try tx.savePeriodicPass(
          PeriodicPassState(passedAt: now, startedAt: pass.state.startedAt), job: pass.job, scope: scope)
      }
    }
    tally.report(to: context, jobs: jobs)
  }

  /// The other jobs whose pass for `scope` was last at the same instant as `job`'s, with the
  /// same period: tonight's blocks are the same for them. A job that never passed starts its
  /// own clock when it first runs.
  private static func partners(
    of job: JobName, state: PeriodicPassState, fullEvery: Duration, scope: String, config: RinConfig,
    tx: StorageTransaction
  ) throws -> [JobPass] {
    try JobName.allCases.compactMap { other in
      guard other != job, let period = period(of: other, in: config),
        period.wholeSeconds == fullEvery.wholeSeconds,
        let theirs = try tx.periodicPassState(job: other, scope: scope), theirs.passedAt == state.passedAt
      else { return nil }
      return JobPass(job: other, state: theirs, fullEvery: period)
    }
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
    var differing: [JobName: Int] = [:]
    var owners: [JobName: Int] = [:]

    mutating func add(_ job: JobName, differing: Int, owners: Int) {
      self.differing[job, default: 0] += differing
      self.owners[job, default: 0] += owners
    }

    /// The run's own job under the plain names; another job it passed for under names that
    /// say which (that job's own run then passes nothing).
    func report(to context: JobContext, jobs: [JobName]) {
      context.addRead(PassCounter.contactsPassed, contacts)
      for job in jobs {
        let other = job == context.job ? nil : job
        context.addRead(PassCounter.contactsDiffering(otherJob: other), differing[job] ?? 0)
        context.addRead(PassCounter.usersFound(otherJob: other), owners[job] ?? 0)
      }
    }
  }
}

/// What the pass counts in `read`: for the run's own job under the plain keys, for another job
/// it passed for under keys that name it.
enum PassCounter: JobCounter {
  case contactsPassed
  case contactsDiffering(otherJob: JobName?)
  case usersFound(otherJob: JobName?)

  var key: String {
    switch self {
    case .contactsPassed: "contacts passed"
    case .contactsDiffering(let job): "contacts passed that differ from their digest" + Self.suffix(job)
    case .usersFound(let job): "users found by the pass" + Self.suffix(job)
    }
  }

  private static func suffix(_ job: JobName?) -> String { job.map { " for \($0.rawValue)" } ?? "" }
}
