import Logging
import RinDomain
import RinStorage

/// Runs one job under the runtime contract of docs/CONTRACT.md §4: ledger row, lease, checkpoint,
/// dry-run transaction, signals, summary. Never throws: every outcome is a `RunSummary`.
public struct JobRunner: Sendable {
  public var config: RinConfig
  public var storage: Storage
  public var logger: Logger
  public var environment: RuntimeEnvironment
  public var stop: StopSignal

  public init(
    config: RinConfig, storage: Storage, logger: Logger,
    environment: RuntimeEnvironment = RuntimeEnvironment(), stop: StopSignal = StopSignal()
  ) {
    self.config = config
    self.storage = storage
    self.logger = logger
    self.environment = environment
    self.stop = stop
  }

  public func run(_ job: any Job, options: RunOptions) async -> RunSummary {
    let job = options.dryRun ? job.forDryRun : job
    let started = environment.wallClock()
    var summary = RunSummary(job: job.name.rawValue, dryRun: options.dryRun)
    summary.pipeline = options.pipeline
    summary.slot = options.slot
    var runID: Int64?
    var context: JobContext?
    var keeper: LeaseKeeper?
    var logger = self.logger
    logger[metadataKey: "job"] = "\(job.name.rawValue)"
    do {
      let now = options.now?.seconds ?? Int64(started)
      let asOf = options.asOf ?? CalendarDate(utcInstant: now)
      let shard = try options.shard.map { try $0.resolve(environment: environment.variables).get() }
      let users = options.userIDs.isEmpty ? nil : Array(Set(options.userIDs)).sorted()
      summary.now = now
      summary.asOf = asOf.description
      summary.shard = shard.map { "\($0.index)/\($0.count)" } ?? "all"
      summary.users = users?.map(String.init).joined(separator: ",")
      logger[metadataKey: "shard"] = "\(summary.shard)"
      let scope = summary.shard + (summary.users.map { " users \($0)" } ?? "")

      let record = RunRecord(
        job: job.name.rawValue, pipeline: options.pipeline, slot: options.slot, asOf: asOf.description,
        shard: summary.shard, users: summary.users, dryRun: options.dryRun, status: .running,
        host: environment.host, pid: environment.pid, startedAt: Int64(started))
      // A dry run commits nothing, so it needs no lease: it cannot collide with a real run.
      // Given a dry run's handle (a pipeline's dry run), the run joins it, and a ledger row
      // would be rolled back with it: the pipeline records this run's row from the summary
      // after its rollback.
      if options.dryRun && storage.isDryRun {
        runID = nil
      } else if options.dryRun {
        runID = try storage.write { try $0.insertRun(record) }
      } else {
        let acquired = try await LeaseKeeper.acquire(
          storage: storage, record: record, waitSeconds: options.waitSeconds, environment: environment,
          logger: logger, stop: stop)
        keeper = acquired
        runID = acquired.runID
      }
      summary.runID = runID
      logger[metadataKey: "run"] = "\(runID ?? 0)"

      let checkpoint =
        options.dryRun
        ? nil
        : try storage.read { try $0.checkpoint(job: job.name, asOf: asOf, scope: scope) }
      if let checkpoint {
        summary.resumedAfterUser = checkpoint.lastUserID
        logger.info(
          "resuming run \(checkpoint.runID)'s work after user \(checkpoint.lastUserID)")
      }
      let makeContext = { (storage: Storage) -> JobContext in
        let ctx = JobContext(
          job: job.name, runID: runID ?? 0, storage: storage, config: config, dryRun: options.dryRun,
          asOf: asOf, now: UTCInstant(seconds: now), logger: logger,
          selection: UserSelection(shard: shard, userIDs: users), checkpointScope: scope,
          resumeAfterUserID: checkpoint?.lastUserID, stop: stop,
          progress: ProgressBar(label: job.name.rawValue, logger: logger, environment: environment.variables))
        ctx.environment = options.dryRun ? dryRunVariables : environment.variables
        ctx.fullPass = options.full
        ctx.batchTargetSeconds = config.storage.batchTarget(isPostgres: storage.isPostgres)?.inSeconds
        ctx.maxReplicaLag = storage.isPostgres ? config.storage.maxReplicaLag : nil
        ctx.deadline = config.jobs.timeout(for: job.name).map {
          RunDeadline(
            job: job.name, timeout: $0,
            at: started + Double($0.components.seconds)
              + Double($0.components.attoseconds) / 1e18, clock: environment.wallClock)
        }
        context = ctx
        if let deadline = ctx.deadline {
          stop.holdHardDeadline(at: deadline.at + RunDeadline.hardStopGrace, reason: deadline.hardStopReason)
        }
        return ctx
      }
      if options.dryRun {
        try await storage.dryRun { session in try await job.run(makeContext(session)) }
      } else {
        try await job.run(makeContext(storage))
        try storage.write {
          try $0.clearCheckpoint(job: job.name, asOf: asOf, scope: scope)
        }
      }
      summary.status = .succeeded
      summary.exitCode = .success
    } catch {
      let failure = RunFailure.from(error)
      summary.error = failure.message
      summary.exitCode = failure.exitCode
      summary.status =
        switch failure.code {
        case .interrupted: .interrupted
        case .leaseHeld: .skipped
        default: .failed
        }
    }
    stop.releaseHardDeadline()
    if summary.status == .interrupted, let reason = context?.details["stop_reason"].flatMap(SkipReason.init) {
      SkipReason.count(
        reason, job: job.name.rawValue, storage: storage, at: environment.wallSeconds, logger: logger)
    }
    if let context {
      summary.counts = context.counts
      summary.changes = context.changes
      summary.details = context.details
      summary.provider = context.providerHealth
      summary.paused = context.paused.isEmpty ? nil : context.paused
    }
    summary.durationSeconds = environment.secondsSince(started)
    finishLedger(runID: runID, summary: summary, logger: logger)
    // Only after the ledger row is final: a crash in between leaves the lease of a dead pid,
    // which the next run takes over, rather than a row that says `running` forever.
    keeper?.release()
    log(summary, logger: logger)
    return summary
  }

  /// A dry run calls no paid API, so it needs no provider secret: an unset key variable gets a
  /// placeholder that no request ever carries (a dry run counts would-be lookups instead).
  var dryRunVariables: [String: String] {
    var variables = environment.variables
    if let name = config.jobs.enrichmentFetch.provider?.apiKeyEnv, (variables[name] ?? "").isEmpty {
      variables[name] = Self.dryRunKeyPlaceholder
    }
    return variables
  }

  static let dryRunKeyPlaceholder = "(dry run: no key needed, none sent)"

  private func finishLedger(runID: Int64?, summary: RunSummary, logger: Logger) {
    guard let runID, summary.status != .skipped else { return }
    do {
      try storage.write {
        try $0.finishRun(
          id: runID, status: summary.status, finishedAt: environment.wallSeconds,
          counts: summary.ledgerCountsJSON, error: summary.error)
      }
    } catch {
      logger.error("could not record the end of run \(runID) in the ledger: \(error)")
    }
  }

  private func log(_ summary: RunSummary, logger: Logger) {
    let written = summary.changes.tables.values.reduce(0) { $0 + $1.total }
    let metadata: Logger.Metadata = [
      "status": "\(summary.status.rawValue)", "users": "\(summary.counts.usersProcessed)",
      "written": "\(written)", "skipped": "\(summary.counts.skipped.values.reduce(0, +))",
      "dry_run": "\(summary.dryRun)", "seconds": "\(summary.durationSeconds)",
    ]
    switch summary.status {
    case .succeeded: logger.info("run finished", metadata: metadata)
    case .interrupted, .skipped:
      logger.warning("run \(summary.status.rawValue): \(summary.error ?? "")", metadata: metadata)
    default: logger.error("run failed: \(summary.error ?? "")", metadata: metadata)
    }
  }
}
