import RinDomain
import RinStorage

extension PipelineRunner {
  /// The ledger's `shard` of a pipeline run: `K/N`, or `all`. `run` has resolved `auto/N` by
  /// then, so the spec is fixed.
  func shardLabel(_ options: PipelineRunOptions) -> String { options.shard?.description ?? "all" }

  /// What running the jobs of one pipeline run gave, with wall-clock times for a dry run's
  /// ledger rows (written after its rollback).
  struct Executed {
    var summary: PipelineRunSummary
    var started: Int64
    var finished: Int64
    /// Per job in `summary.jobs`: started, finished.
    var jobTimes: [(started: Int64, finished: Int64)] = []
  }

  /// The jobs in order; the first that does not succeed stops the rest.
  func runJobs(
    _ pipeline: PipelineConfig, slot: String?, jobNow: Int64, dryRun: Bool, options: PipelineRunOptions
  ) async -> Executed {
    let started = environment.wallClock()
    var executed = Executed(
      summary: PipelineRunSummary(pipeline: pipeline.name, slot: slot, dryRun: dryRun),
      started: Int64(started), finished: 0)
    let runner = JobRunner(
      config: config, storage: storage, logger: logger, environment: environment, stop: stop)
    for name in pipeline.jobs {
      if stop.isRequested {
        executed.summary.status = .interrupted
        executed.summary.exitCode = .temporary
        executed.summary.stoppedAt = name.rawValue
        executed.summary.error = "stopped by signal before \(name.rawValue); the slot is left to run again"
        break
      }
      let jobStarted = environment.wallSeconds
      var job: RunSummary
      if let implementation = jobs(name) {
        var jobOptions = RunOptions()
        jobOptions.dryRun = dryRun
        jobOptions.now = UTCInstant(seconds: jobNow)
        jobOptions.pipeline = pipeline.name
        jobOptions.slot = slot
        jobOptions.waitSeconds = options.waitSeconds
        jobOptions.shard = options.shard
        job = await runner.run(implementation, options: jobOptions)
      } else {
        job = notBuilt(
          name, pipeline: pipeline.name, slot: slot, jobNow: jobNow, dryRun: dryRun, at: jobStarted)
      }
      executed.summary.jobs.append(job)
      executed.jobTimes.append((jobStarted, environment.wallSeconds))
      guard job.exitCode == .success else {
        executed.summary.status = job.status
        executed.summary.exitCode = job.exitCode
        executed.summary.stoppedAt = name.rawValue
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
    executed.finished = environment.wallSeconds
    executed.summary.durationSeconds = environment.secondsSince(started)
    return executed
  }

  /// A job this build does not have: the pipeline stops there, and the ledger says so (a real
  /// run's row now; a dry run's after its rollback).
  private func notBuilt(
    _ name: JobName, pipeline: String, slot: String?, jobNow: Int64, dryRun: Bool, at instant: Int64
  ) -> RunSummary {
    var summary = RunSummary(job: name.rawValue, dryRun: dryRun)
    summary.pipeline = pipeline
    summary.slot = slot
    summary.now = jobNow
    summary.status = .failed
    summary.exitCode = .failure
    summary.error = "\(name.rawValue) is not built yet in this release; it ran nothing"
    guard !dryRun else { return summary }
    summary.runID = try? storage.write {
      try $0.insertRun(jobRecord(summary, started: instant, finished: instant))
    }
    return summary
  }

  /// The ledger row of a job run from its summary.
  func jobRecord(_ summary: RunSummary, started: Int64, finished: Int64) -> RunRecord {
    RunRecord(
      job: summary.job, pipeline: summary.pipeline, slot: summary.slot, asOf: summary.asOf,
      shard: summary.shard, users: summary.users, dryRun: summary.dryRun, status: summary.status,
      host: environment.host, pid: environment.pid, startedAt: started, heartbeatAt: nil,
      finishedAt: finished,
      counts: summary.ledgerCountsJSON, error: summary.error)
  }
}
