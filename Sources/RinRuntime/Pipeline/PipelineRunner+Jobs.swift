import RinConfiguration
import RinDomain
import RinStorage

extension PipelineRunner {
  /// The ledger's `shard` of a pipeline run: `K/N`, or `all`. `run` has resolved `auto/N` by
  /// then, so the spec is fixed.
  func runShard(_ options: PipelineRunOptions) -> RunShard {
    if case .fixed(let shard)? = options.shard { shard } else { .all }
  }

  /// What running the jobs of one pipeline run gave, with wall-clock times for a dry run's
  /// ledger rows (written after its rollback).
  struct Executed {
    var summary: PipelineRunSummary
    var started: UTCInstant
    var finished: UTCInstant
    /// Per job in `summary.jobs`: started, finished.
    var jobTimes: [(started: UTCInstant, finished: UTCInstant)] = []
  }

  /// The jobs in order; the first that does not succeed stops the rest.
  func runJobs(
    _ pipeline: PipelineConfig, slot: UTCInstant?, jobNow: UTCInstant, dryRun: Bool,
    options: PipelineRunOptions
  ) async -> Executed {
    let started = ContinuousClock.now
    let startedAt = environment.now
    var executed = Executed(
      summary: PipelineRunSummary(pipeline: pipeline.name, slot: slot, dryRun: dryRun),
      started: startedAt, finished: startedAt)
    let runner = JobRunner(
      config: config, storage: storage, logger: logger, environment: environment, stop: stop)
    for name in pipeline.jobs {
      if stop.isRequested {
        executed.summary.status = .interrupted
        executed.summary.exitCode = .temporary
        executed.summary.stoppedAt = name
        executed.summary.error = "stopped by signal before \(name.rawValue); the slot is left to run again"
        break
      }
      let jobStarted = environment.now
      var jobOptions = RunOptions()
      jobOptions.dryRun = dryRun
      jobOptions.now = jobNow
      jobOptions.pipeline = pipeline.name
      jobOptions.slot = slot
      jobOptions.wait = options.wait
      jobOptions.shard = options.shard
      let job = await runner.run(jobs(name), options: jobOptions)
      executed.summary.jobs.append(job)
      executed.jobTimes.append((jobStarted, environment.now))
      guard job.exitCode == .success else {
        executed.summary.status = job.status
        executed.summary.exitCode = job.exitCode
        executed.summary.stoppedAt = name
        let later = pipeline.jobs.drop { $0 != name }.dropFirst().map(\.rawValue)
        let skipped = later.isEmpty ? "" : "; not run: \(later.joined(separator: ", "))"
        executed.summary.error =
          "\(name.rawValue) \(job.status.rawValue): \(job.error ?? "no reason given")\(skipped)"
        break
      }
    }
    if executed.summary.status == .running {
      executed.summary.status = .succeeded
      executed.summary.exitCode = .success
    }
    executed.finished = environment.now
    executed.summary.durationSeconds = (ContinuousClock.now - started).millisecondSeconds
    return executed
  }

  /// The ledger row of a job run from its summary.
  func jobRecord(_ summary: RunSummary, started: UTCInstant, finished: UTCInstant) -> RunRecord {
    RunRecord(
      job: .job(summary.job), pipeline: summary.pipeline, slot: summary.slot, asOf: summary.asOf,
      shard: summary.shard, users: summary.users, dryRun: summary.dryRun, status: summary.status,
      host: environment.host, pid: environment.pid, startedAt: started, heartbeatAt: nil,
      finishedAt: finished,
      counts: summary.ledgerCountsJSON, error: summary.error)
  }
}
