import RinStorage

/// The human report of `rinjobs pipeline run`: per run, a line for the pipeline, then each job's
/// own summary (per table: rows inserted, updated, deleted with samples; notifications queued),
/// then the totals of all its jobs together.
public enum PipelineReportText {
  public static func render(_ report: PipelineReport) -> String {
    var lines: [String] = []
    if report.runs.isEmpty {
      lines.append("\(report.pipeline): \(report.idleReason ?? "nothing ran")")
    }
    for run in report.runs { lines += render(run) }
    if !report.superseded.isEmpty {
      let verb = report.dryRun ? "would mark" : "marked"
      lines.append(
        "\(report.pipeline): \(verb) \(report.superseded.count) older missed slot(s) superseded: \(report.superseded.map(\.description).joined(separator: ", "))"
      )
    }
    if let error = report.error { lines.append("\(report.pipeline): error: \(error)") }
    return lines.joined(separator: "\n")
  }

  static func render(_ run: PipelineRunSummary) -> [String] {
    let mode = run.dryRun ? "dry run" : "run"
    let id = run.runID.map { " #\($0)" } ?? ""
    let slot = run.slot.map { ", slot \($0)" } ?? ""
    var lines = [
      "pipeline \(run.pipeline) \(mode)\(id)\(slot): \(run.status.rawValue) in \(run.durationSeconds) s"
    ]
    if !run.jobs.isEmpty {
      lines.append("  jobs: " + run.jobs.map { "\($0.job) \($0.status.rawValue)" }.joined(separator: ", "))
    }
    if let error = run.error { lines.append("  error: \(error)") }
    for job in run.jobs {
      lines.append("")
      lines += SummaryText.render(job).split(separator: "\n", omittingEmptySubsequences: false).map {
        "  \($0)"
      }
    }
    if run.jobs.count > 1 {
      lines.append("")
      lines.append("  all jobs together:")
      lines += totals(run.combinedChanges, dryRun: run.dryRun).map { "    \($0)" }
    }
    return lines
  }

  private static func totals(_ changes: ChangeSet, dryRun: Bool) -> [String] {
    let verb = dryRun ? "would " : ""
    var lines: [String] = []
    for (table, c) in changes.tables.sorted(by: { $0.key < $1.key }) where c.total > 0 {
      var parts: [String] = []
      if c.inserted > 0 { parts.append("\(verb)insert \(c.inserted)") }
      if c.updated > 0 { parts.append("\(verb)update \(c.updated)") }
      if c.deleted > 0 { parts.append("\(verb)delete \(c.deleted)") }
      lines.append("\(table): \(parts.joined(separator: ", "))")
    }
    for (kind, n) in changes.notifications.sorted(by: { $0.key < $1.key }) {
      lines.append("notifications \(dryRun ? "that would be " : "")queued: \(n) \(kind)")
    }
    return lines.isEmpty ? ["\(dryRun ? "would change" : "changed") nothing"] : lines
  }
}
