import RinConfiguration
import RinDomain
import RinStorage

extension PipelineRunner {
  /// Every target in one dry run, rolled back at the end, so each job (and each caught-up slot)
  /// sees the effects of the ones before it and nothing is committed. The jobs get the dry
  /// run's handle and so join it instead of opening their own; the ledger rows of the whole
  /// dry run are written after the rollback, which would otherwise take them along.
  func runDry(
    _ pipeline: PipelineConfig, targets: [Target], options: PipelineRunOptions
  ) async throws -> [PipelineRunSummary] {
    let executed = try await storage.dryRun { session in
      var runner = self
      runner.storage = session
      var executed: [Executed] = []
      for target in targets {
        let run = await runner.runJobs(
          pipeline, slot: target.slot?.slot, jobNow: target.jobNow, dryRun: true, options: options)
        executed.append(run)
        guard run.summary.exitCode == .success else { break }
      }
      return executed
    }
    return try record(executed)
  }

  /// Writes the ledger rows of a dry run, now that its transaction is gone, and returns the
  /// summaries with their run ids.
  private func record(_ executed: [Executed]) throws -> [PipelineRunSummary] {
    try storage.write { tx in
      var summaries: [PipelineRunSummary] = []
      for run in executed {
        var summary = run.summary
        let pipelineRunID = try tx.runtime.insertRun(
          RunRecord(
            job: .pipeline(summary.pipeline), pipeline: summary.pipeline, slot: summary.slot, asOf: nil,
            shard: .all, dryRun: true, status: .running, host: environment.host, pid: environment.pid,
            startedAt: run.started))
        for (index, times) in run.jobTimes.enumerated() {
          summary.jobs[index].runID = try tx.runtime.insertRun(
            jobRecord(summary.jobs[index], started: times.started, finished: times.finished))
        }
        summary.runID = pipelineRunID
        try tx.runtime.finishRun(
          id: pipelineRunID, status: summary.status, finishedAt: run.finished,
          counts: summary.ledgerCounts.json,
          error: summary.error)
        summaries.append(summary)
      }
      return summaries
    }
  }

  /// Marks missed slots that `--catch-up latest` replaced by `latest`, so `status` no longer
  /// owes them.
  func supersede(_ slots: [FireTime], by latest: FireTime, pipeline: PipelineName, shard: RunShard) throws {
    let now = environment.now
    try storage.write { tx in
      for slot in slots {
        _ = try tx.runtime.insertRun(
          RunRecord(
            job: .pipeline(pipeline), pipeline: pipeline, slot: slot.slot, asOf: nil,
            shard: shard,
            dryRun: false, status: .skipped, host: environment.host, pid: environment.pid, startedAt: now,
            finishedAt: now, counts: PipelineLedger.Counts(supersededBy: latest.slot).json,
            error: "superseded by slot \(latest.slot): --catch-up latest ran only the newest missed slot",
            supersededBy: latest.slot))
      }
    }
  }
}
