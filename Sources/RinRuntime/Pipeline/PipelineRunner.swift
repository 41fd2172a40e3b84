import Logging
import RinConfiguration
import RinDomain
import RinStorage

/// Runs a pipeline's jobs in order in this process (docs/CONTRACT.md §4): for the slot due now, for
/// missed slots, or once now. A job that does not succeed stops the pipeline, and the ledger
/// names it. Never throws: every outcome is a `PipelineReport`.
public struct PipelineRunner: Sendable {
  public typealias JobLookup = @Sendable (JobName) -> any Job

  public var config: RinConfig
  public var storage: Storage
  public var logger: Logger
  public var environment: RuntimeEnvironment
  public var stop: StopSignal
  /// The job of each name (`JobCatalog.job`; tests substitute failing ones).
  public var jobs: JobLookup

  public init(
    config: RinConfig, storage: Storage, logger: Logger,
    environment: RuntimeEnvironment = RuntimeEnvironment(),
    stop: StopSignal = StopSignal(), jobs: @escaping JobLookup
  ) {
    self.config = config
    self.storage = storage
    self.logger = logger
    self.environment = environment
    self.stop = stop
    self.jobs = jobs
  }

  public func run(_ pipeline: PipelineConfig, options: PipelineRunOptions) async -> PipelineReport {
    var options = options
    let now = options.now ?? environment.now
    var report = PipelineReport(pipeline: pipeline.name, dryRun: options.dryRun, now: now)
    do {
      if let problem = options.usageProblem() { throw RunFailure.usage(problem) }
      // `auto/N` reads JOB_COMPLETION_INDEX here, once: every run and job below gets it fixed.
      options.shard = try options.shard.map {
        .fixed(try $0.resolve(environment: environment.variables).get())
      }
      let plan = options.isSlotted ? try planSlots(pipeline, now: now, options: options) : nil
      report.idleReason = plan?.idleReason
      // A slot's jobs run with the slot's instant as their clock, so a caught-up slot computes
      // what it would have computed on time; a one-off run uses `now`.
      let targets: [Target] =
        plan.map { $0.run.map { Target(slot: $0, jobNow: $0.slot) } } ?? [Target(slot: nil, jobNow: now)]
      if options.dryRun {
        report.runs = try await runDry(pipeline, targets: targets, options: options)
        report.superseded = plan?.supersede.map(\.slot) ?? []
      } else if let plan, let pause = try storage.read({ try $0.runtime.pipelinePause(pipeline.name) }) {
        // A paused pipeline's slots are recorded as skipped on purpose, so `status` does not
        // owe them; a one-off run (no slot) is an operator's explicit request and goes ahead.
        report.runs = try recordPaused(
          plan.run + plan.supersede, pause: pause, pipeline: pipeline.name, shard: runShard(options))
      } else {
        try await runReal(pipeline, targets: targets, plan: plan, options: options, into: &report)
      }
    } catch {
      let failure = RunFailure.from(error)
      report.error = failure.message
      report.exitCode = failure.exitCode
    }
    if report.exitCode == .success, let stopped = report.runs.first(where: { $0.exitCode != .success }) {
      report.exitCode = stopped.exitCode
    }
    log(report)
    return report
  }

  /// One pipeline run to make: for a slot (its instant the jobs' clock), or none (`now`).
  struct Target {
    var slot: FireTime?
    var jobNow: UTCInstant
  }

  /// The slots a slotted run takes on, from the schedule and the ledger; an idle plan's skip
  /// is counted.
  private func planSlots(_ pipeline: PipelineConfig, now: UTCInstant, options: PipelineRunOptions) throws
    -> SlotPlan
  {
    // A run whose process died on this host is not running: its slot is owed again now.
    if !options.dryRun { DeadRuns.abandon(storage: storage, environment: environment, logger: logger) }
    guard let schedule = CronSchedule(pipeline: pipeline) else {
      throw RunFailure(.configuration, "pipeline \(pipeline.name): unknown time zone '\(pipeline.timezone)'")
    }
    let plan = try SlotPlan.make(schedule: schedule, now: now, options: options) { fires in
      try SlotState.load(
        fires, pipeline: pipeline.name, storage: storage, staleBefore: environment.staleBefore,
        shard: runShard(options))
    }
    if let idle = plan.idleKind, !options.dryRun {
      SkipReason.count(
        idle, job: .pipeline(pipeline.name), storage: storage, at: environment.now, logger: logger)
    }
    return plan
  }

  /// The real runs of `targets` in order, until one does not succeed; then the slots a
  /// catch-up superseded, and the pause after too many failures.
  private func runReal(
    _ pipeline: PipelineConfig, targets: [Target], plan: SlotPlan?, options: PipelineRunOptions,
    into report: inout PipelineReport
  ) async throws {
    for target in targets {
      let run = await runReal(pipeline, target, options: options)
      report.runs.append(run)
      guard run.exitCode == .success else { break }
    }
    if let plan, let latest = plan.run.last, !plan.supersede.isEmpty,
      report.runs.allSatisfy({ $0.exitCode == .success })
    {
      try supersede(plan.supersede, by: latest, pipeline: pipeline.name, shard: runShard(options))
      report.superseded = plan.supersede.map(\.slot)
    }
    if plan != nil, report.runs.contains(where: { $0.status == .failed }) {
      try pauseAfterFailures(pipeline)
    }
  }

  /// One real run: the pipeline's lease and ledger row, then its jobs.
  private func runReal(_ pipeline: PipelineConfig, _ target: Target, options: PipelineRunOptions) async
    -> PipelineRunSummary
  {
    let slot = target.slot?.slot
    var summary = PipelineRunSummary(pipeline: pipeline.name, slot: slot, dryRun: false)
    let started = ContinuousClock.now
    let record = RunRecord(
      job: .pipeline(pipeline.name), pipeline: pipeline.name, slot: slot, asOf: nil,
      shard: runShard(options), dryRun: false, status: .running, host: environment.host,
      pid: environment.pid, startedAt: environment.now)
    let keeper: LeaseKeeper
    do {
      keeper = try await LeaseKeeper.acquire(
        storage: storage, record: record, wait: options.wait, environment: environment,
        logger: logger, stop: stop)
    } catch {
      let failure = RunFailure.from(error)
      summary.status = failure.code == .leaseHeld ? .skipped : .failed
      summary.exitCode = failure.exitCode
      summary.error = failure.message
      return summary
    }
    defer { keeper.release() }
    summary.runID = keeper.runID
    let pings = pipeline.notify.map { PipelinePings($0, environment: environment, logger: logger) }
    await pings?.send(
      .start,
      .init(event: "start", pipeline: pipeline.name, runID: keeper.runID, slot: slot, status: "running")
    )
    if let fire = target.slot,
      let doneBy = anotherRunFinished(
        fire, pipeline: pipeline.name, shard: record.shard, besides: keeper.runID)
    {
      // Another trigger finished this slot between our plan and our lease.
      summary.status = .skipped
      summary.error = "slot \(fire.slot) \(SlotPlan.describe(doneBy)) meanwhile"
    } else {
      summary = await runJobs(pipeline, slot: slot, jobNow: target.jobNow, dryRun: false, options: options)
        .summary
      summary.runID = keeper.runID
    }
    summary.durationSeconds = (ContinuousClock.now - started).millisecondSeconds
    recordEnd(summary, runID: keeper.runID)
    if summary.status != .skipped {
      let event: PipelinePings.Event = summary.status == .succeeded ? .success : .failure
      await pings?.send(
        event,
        .init(
          event: event.rawValue, pipeline: pipeline.name, runID: keeper.runID, slot: slot,
          status: summary.status.rawValue, exitCode: summary.exitCode.rawValue,
          durationSeconds: summary.durationSeconds))
    }
    return summary
  }

  private func recordEnd(_ summary: PipelineRunSummary, runID: RunID) {
    do {
      try storage.write {
        try $0.runtime.finishRun(
          id: runID, status: summary.status, finishedAt: environment.now,
          counts: summary.ledgerCounts.json, error: summary.error)
      }
    } catch {
      logger.error("could not record the end of pipeline run \(runID) in the ledger: \(error)")
    }
  }

  private func anotherRunFinished(
    _ slot: FireTime, pipeline: PipelineName, shard: RunShard, besides runID: RunID
  ) -> SlotState? {
    let states = try? SlotState.load(
      [slot], pipeline: pipeline, storage: storage, staleBefore: environment.staleBefore, shard: shard)
    guard let state = states?[slot.slot], state.isDone else { return nil }
    return state
  }

  private func log(_ report: PipelineReport) {
    var logger = self.logger
    logger[metadataKey: "pipeline"] = "\(report.pipeline)"
    if let idle = report.idleReason, report.runs.isEmpty { logger.info("\(idle)") }
    if let error = report.error { logger.error("pipeline run failed: \(error)") }
    for run in report.runs {
      let metadata: Logger.Metadata = [
        "slot": "\(run.slot.map(\.description) ?? "-")", "status": "\(run.status.rawValue)",
        "dry_run": "\(run.dryRun)",
        "seconds": "\(run.durationSeconds)", "run": "\(run.runID ?? 0)",
      ]
      if run.exitCode == .success {
        logger.info("pipeline run finished", metadata: metadata)
      } else {
        logger.error(
          "pipeline stopped at \(run.stoppedAt?.rawValue ?? "-"): \(run.error ?? "")", metadata: metadata)
      }
    }
  }
}
