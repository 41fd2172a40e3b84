import Logging
import RinConfiguration
import RinDomain
import RinStorage

/// Runs one job under the runtime contract of docs/CONTRACT.md §4: ledger row, lease, checkpoint,
/// dry-run transaction, signals, summary. Never throws: every outcome is a `RunSummary`.
///
/// A run goes through four steps: `prepare` (options resolved into the run's ledger row),
/// `acquire` (lease and row, resume point), `execute` (the job, in a dry run's transaction or
/// not) and `finish` (ledger, lease, log), which runs whatever the others did.
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
    var run = JobRun(job: job.name, options: options, logger: logger, startedAt: environment.now)
    do {
      let prepared = try prepare(&run, options: options)
      let resume = try await acquire(&run, prepared, options: options)
      try await execute(job, &run, prepared, resume: resume, options: options)
      run.summary.status = .succeeded
      run.summary.exitCode = .success
    } catch {
      run.fail(error)
    }
    return finish(&run)
  }

  /// A dry run calls no paid API, so it needs no secret: each unset secret variable of the jobs'
  /// settings (`JobSettings.secretVariables`) gets a placeholder that no request ever carries (a
  /// dry run counts what it would send instead).
  var dryRunVariables: [String: String] {
    var variables = environment.variables
    for name in config.jobs.secretVariables where (variables[name] ?? "").isEmpty {
      variables[name] = Self.dryRunKeyPlaceholder
    }
    return variables
  }

  static let dryRunKeyPlaceholder = "(dry run: no key needed, none sent)"
}

// MARK: - The steps

extension JobRunner {
  /// What `prepare` resolves from the options: the job's clock and date, the users, the scope
  /// of its checkpoint and its ledger row.
  struct Prepared {
    var now: UTCInstant
    var asOf: CalendarDate
    var selection: UserSelection
    var checkpointScope: CheckpointScope
    var record: RunRecord
  }

  func prepare(_ run: inout JobRun, options: RunOptions) throws -> Prepared {
    let now = options.now ?? run.startedAt
    let asOf = options.asOf ?? CalendarDate(utcInstant: now)
    let shard = try options.shard?.resolve(environment: environment.variables).get() ?? .all
    let users = options.userIDs.isEmpty ? nil : Array(Set(options.userIDs)).sorted()
    run.summary.now = now
    run.summary.asOf = asOf
    run.summary.shard = shard
    run.summary.users = users.map(CheckpointScope.usersText)
    run.logger[metadataKey: "shard"] = "\(run.summary.shard)"
    let record = RunRecord(
      job: .job(run.summary.job), pipeline: options.pipeline, slot: options.slot, asOf: asOf,
      shard: run.summary.shard, users: run.summary.users, dryRun: options.dryRun, status: .running,
      host: environment.host, pid: environment.pid, startedAt: run.startedAt)
    return Prepared(
      now: now, asOf: asOf, selection: UserSelection(shard: shard, userIDs: users),
      checkpointScope: CheckpointScope(shard: shard, userIDs: users),
      record: record)
  }

  /// Takes the lease with the ledger row (a real run), or writes the row alone (a dry run);
  /// returns the checkpoint a real run resumes from.
  func acquire(_ run: inout JobRun, _ prepared: Prepared, options: RunOptions) async throws -> Checkpoint? {
    // A dry run commits nothing, so it needs no lease: it cannot collide with a real run.
    // Given a dry run's handle (a pipeline's dry run), the run joins it, and a ledger row
    // would be rolled back with it: the pipeline records this run's row from the summary
    // after its rollback.
    if options.dryRun {
      run.runID = storage.isDryRun ? nil : try storage.write { try $0.runtime.insertRun(prepared.record) }
    } else {
      let keeper = try await LeaseKeeper.acquire(
        storage: storage, record: prepared.record, wait: options.wait, environment: environment,
        logger: run.logger, stop: stop)
      run.keeper = keeper
      run.runID = keeper.runID
    }
    run.summary.runID = run.runID
    run.logger[metadataKey: "run"] = "\(run.runID ?? 0)"
    guard !options.dryRun else { return nil }
    let checkpoint = try storage.read {
      try $0.runtime.checkpoint(job: run.summary.job, asOf: prepared.asOf, scope: prepared.checkpointScope)
    }
    if let checkpoint {
      run.summary.resumedAfterUser = checkpoint.lastUserID
      run.logger.info("resuming run \(checkpoint.runID)'s work after user \(checkpoint.lastUserID)")
    }
    return checkpoint
  }

  /// Runs the job: in a dry run's transaction, rolled back; or for real, then clears the
  /// checkpoint its batches kept.
  func execute(
    _ job: any Job, _ run: inout JobRun, _ prepared: Prepared, resume: Checkpoint?, options: RunOptions
  ) async throws {
    let snapshot = run
    let tally = JobTally()
    run.tally = tally
    if options.dryRun {
      try await storage.dryRun { session in
        try await job.run(
          makeContext(
            job.name, run: snapshot, prepared, storage: session, tally: tally, resume: resume,
            options: options))
      }
    } else {
      try await job.run(
        makeContext(
          job.name, run: snapshot, prepared, storage: storage, tally: tally, resume: resume, options: options)
      )
      try storage.write {
        try $0.runtime.clearCheckpoint(job: job.name, asOf: prepared.asOf, scope: prepared.checkpointScope)
      }
    }
  }

  /// The job's context: its input, built once, and the runner's `tally`.
  private func makeContext(
    _ job: JobName, run: JobRun, _ prepared: Prepared, storage: Storage, tally: JobTally,
    resume: Checkpoint?, options: RunOptions
  ) -> JobContext {
    let input = JobRunInput(
      job, runID: run.runID ?? 0, prepared: prepared, resume: resume, options: options, runner: self,
      isPostgres: storage.isPostgres, started: run.started, logger: run.logger)
    if let deadline = input.deadline {
      stop.holdHardDeadline(at: deadline.at + RunDeadline.hardStopGrace, reason: deadline.hardStopReason)
    }
    return JobContext(
      input: input, storage: storage, tally: tally, stop: stop,
      progress: ProgressBar(label: job.rawValue, logger: run.logger, environment: environment.variables))
  }

  /// Whatever happened before: counts a stop, completes the summary, records the end in the
  /// ledger, gives the lease back, logs.
  func finish(_ run: inout JobRun) -> RunSummary {
    stop.releaseHardDeadline()
    if let tally = run.tally {
      run.summary.counts = tally.counts
      run.summary.changes = tally.changes
      run.summary.details = tally.details
      run.summary.provider = tally.providerHealth
      run.summary.paused = tally.pausedWithBatchTime
      if let reason = tally.stopReason {
        run.summary.details.stopReason = reason
        if run.summary.status == .interrupted {
          SkipReason.count(
            reason, job: .job(run.summary.job), storage: storage, at: environment.now, logger: run.logger)
        }
      }
    }
    run.summary.durationSeconds = (ContinuousClock.now - run.started).millisecondSeconds
    finishLedger(runID: run.runID, summary: run.summary, logger: run.logger)
    // Only after the ledger row is final: a crash in between leaves the lease of a dead pid,
    // which the next run takes over, rather than a row that says `running` forever.
    run.keeper?.release()
    log(run.summary, logger: run.logger)
    return run.summary
  }

  private func finishLedger(runID: RunID?, summary: RunSummary, logger: Logger) {
    guard let runID, summary.status != .skipped else { return }
    do {
      try storage.write {
        try $0.runtime.finishRun(
          id: runID, status: summary.status, finishedAt: environment.now,
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
