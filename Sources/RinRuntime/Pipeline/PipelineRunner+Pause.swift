import RinConfiguration
import RinDomain
import RinStorage

extension PipelineRunner {
  /// Records each of `slots` as skipped because the pipeline is paused: no job runs, the run
  /// exits 0, and `status` counts the slots as paused, not missed.
  func recordPaused(_ slots: [FireTime], pause: PipelinePause, pipeline: PipelineName, shard: RunShard)
    throws -> [PipelineRunSummary]
  {
    let now = environment.now
    for _ in slots {
      SkipReason.count(.paused, job: .pipeline(pipeline), storage: storage, at: now, logger: logger)
    }
    let why =
      "pipeline paused since \(pause.pausedAt) by \(pause.pausedBy)\(pause.reason.map { ": \($0)" } ?? ""); resume with rinjobs pipeline resume \(pipeline)"
    return try storage.write { tx in
      try slots.map { slot in
        var summary = PipelineRunSummary(pipeline: pipeline, slot: slot.slot, dryRun: false)
        summary.status = .skipped
        summary.error = why
        summary.runID = try tx.runtime.insertRun(
          RunRecord(
            job: .pipeline(pipeline), pipeline: pipeline, slot: slot.slot, asOf: nil,
            shard: shard,
            dryRun: false, status: .skipped, host: environment.host, pid: environment.pid, startedAt: now,
            finishedAt: now, counts: PipelineLedger.Counts(skipReason: .paused).json,
            error: why))
        return summary
      }
    }
  }

  /// `pause_after_failures: N`: after a failed slot, pauses the pipeline when its latest N
  /// slots all failed, so that a broken deployment stops retrying (and paging) every slot.
  func pauseAfterFailures(_ pipeline: PipelineConfig) throws {
    guard let limit = pipeline.pauseAfterFailures else { return }
    let latest = try storage.read {
      try $0.runtime.latestSlotStatuses(pipeline: pipeline.name, count: limit)
    }
    guard latest.count == limit, latest.allSatisfy({ $0 == .failed }) else { return }
    let pause = try storage.write {
      try $0.runtime.pausePipeline(
        PipelinePause(
          pipeline: pipeline.name, pausedAt: environment.now,
          pausedBy: "rinjobs (pause_after_failures)",
          reason: "\(limit) failed slots in a row"))
    }
    logger.warning(
      "pipeline \(pipeline.name) paused after \(limit) failed slots in a row (pause_after_failures); fix the cause, then: rinjobs pipeline resume \(pipeline.name)",
      metadata: ["pipeline": "\(pipeline.name)", "paused_at": "\(pause.pausedAt)"])
  }
}
