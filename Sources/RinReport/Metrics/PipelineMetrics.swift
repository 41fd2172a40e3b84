import RinDomain
import RinRuntime
import RinStorage

extension MetricsFile {
  /// The facts of a pipeline run: each job's latest run in it, and the pipeline as a whole
  /// (label `job="pipeline:NAME"`), so an alert can watch either.
  /// - Parameters:
  ///   - deadline: the pipeline's `deadline`, if any; with `finishedAt` (on the wall clock), the
  ///     lateness of the last slot.
  public static func facts(
    for report: PipelineReport, storage: Storage, deadline: Duration? = nil,
    finishedAt: UTCInstant = UTCInstant(seconds: 0)
  ) throws -> [JobFacts] {
    guard let last = report.runs.last else { return [] }
    var latestByJob: [JobName: RunSummary] = [:]
    var order: [JobName] = []
    for job in report.runs.flatMap(\.jobs) {
      if latestByJob[job.job] == nil { order.append(job.job) }
      latestByJob[job.job] = job
    }
    var facts = try order.compactMap { latestByJob[$0] }.map { try Self.facts(for: $0, storage: storage) }
    let runJob = RunSubject.pipeline(report.pipeline)
    let (lastSuccess, failures, skips) = try storage.read { tx in
      (
        try tx.runtime.lastSuccessfulFinish(job: runJob), try tx.runtime.failedRunCount(job: runJob),
        try tx.runtime.skipCounts(job: runJob)
      )
    }
    let jobs = last.jobs
    let lateness = deadline.flatMap { deadline in
      last.slot.map { Double(max(0, (finishedAt - ($0 + deadline)).wholeSeconds)) }
    }
    facts.append(
      JobFacts(
        job: runJob, lastSuccessAt: lastSuccess,
        lastDurationSeconds: last.durationSeconds,
        lastRunFailed: last.status == .failed, failedRuns: failures,
        itemsRead: jobs.reduce(0) { $0 + $1.counts.read.values.reduce(0, +) },
        itemsWritten: jobs.reduce(0) { $0 + $1.changes.tables.values.reduce(0) { $0 + $1.total } },
        itemsSkipped: jobs.reduce(0) { $0 + $1.counts.skipped.values.reduce(0, +) },
        usersProcessed: nil, deadlineLatenessSeconds: lateness,
        skips: skips))
    return facts
  }
}
