import Foundation
import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// The human form of `rinjobs status`: a block per pipeline, problems listed slot by slot.
public enum PipelineStatusText {
  static let maxListed = 10

  public static func render(_ statuses: [PipelineStatus], lookBack: Duration) -> String {
    guard !statuses.isEmpty else { return "no pipelines configured" }
    var lines: [String] = []
    for s in statuses {
      var verdict = s.problems == 0 ? "OK" : "\(s.problems) problem\(s.problems == 1 ? "" : "s")"
      let down = s.providers.filter { !$0.available }.map(\.provider)
      if !down.isEmpty { verdict += ", DEGRADED: provider \(down.joined(separator: ", ")) unavailable" }
      if s.paused != nil { verdict += ", PAUSED" }
      lines.append("\(s.pipeline)  \"\(s.schedule)\" \(s.timezone)  \(verdict)")
      lines.append("  last run: \(describe(s.lastRun))")
      lines.append(
        "  slots from \(s.windowStart) to \(s.now) (look-back \(DurationFormat.format(lookBack))): \(s.slotsExpected) slots, \(s.slotsSucceeded) succeeded\(s.slotsSuperseded > 0 ? ", \(s.slotsSuperseded) superseded" : ""); next slot \(s.nextSlot ?? "none")"
      )
      if let pause = s.paused {
        lines.append(
          "  paused since \(pause.pausedAt) by \(pause.pausedBy)\(pause.reason.map { ": \($0)" } ?? ""); \(s.slotsPaused) slots skipped; resume: rinjobs pipeline resume \(s.pipeline)"
        )
      }
      for provider in s.providers { lines.append("  \(describe(provider))") }
      if !s.running.isEmpty { lines.append("  running: \(s.running.joined(separator: ", "))") }
      if !s.due.isEmpty { lines.append("  due now, not run yet: \(s.due.joined(separator: ", "))") }
      // A pipeline that never ran owes every slot in the window: show the ends, count the rest.
      let shown =
        s.missed.count <= maxListed
        ? s.missed : s.missed.prefix(maxListed / 2) + s.missed.suffix(maxListed / 2)
      for (index, problem) in shown.enumerated() {
        if s.missed.count > maxListed, index == maxListed / 2 {
          lines.append("  … \(s.missed.count - maxListed) more missed slots (`status --json` lists them all)")
        }
        lines.append("  missed: \(problem.slot)\(problem.detail.map { " (\($0))" } ?? "")")
      }
      for problem in s.late { lines.append("  late: \(problem.slot) (\(problem.detail ?? ""))") }
      for problem in s.failed {
        lines.append(
          "  failed: \(problem.slot) (run \(problem.runID ?? 0)): \(problem.detail ?? "no error recorded")")
      }
      if let hint = catchUpHint(s) { lines.append("  catch up: \(hint)") }
    }
    return lines.joined(separator: "\n")
  }

  /// The command that runs the slots owed (missed or failed), with a `--max-age` just long
  /// enough for the oldest; nil when none is owed (a late slot ran, or runs).
  static func catchUpHint(_ s: PipelineStatus) -> String? {
    let owed = (s.missed + s.failed).map(\.slot)
    guard let oldest = owed.min(), let now = SlotInstant.parse(s.now) else { return nil }
    let hours = max(1, (oldest.distance(to: now) + 3_599) / 3_600)
    let age = hours % 24 == 0 ? "\(hours / 24)d" : "\(hours)h"
    let command = "rinjobs pipeline run \(s.pipeline) --catch-up all --max-age \(age)"
    guard owed.count > 1 else { return command }
    return
      "\(command) (\(owed.count) slots, oldest first; `--catch-up latest --max-age \(age)` runs only the newest and marks the others superseded)"
  }

  static func describe(_ p: ProviderHealth) -> String {
    let run = p.runID.map { "run #\($0)" } ?? "the last run"
    guard !p.available else { return "provider \(p.provider): up (\(run))" }
    return
      "provider \(p.provider): UNAVAILABLE since \(p.openedAt ?? "-") (\(p.cause ?? "circuit breaker open")); \(run) deferred \(p.keysDeferred) keys; next probe after \(p.nextProbeAfter ?? "-")"
  }

  static func describe(_ run: RunRecord?) -> String {
    guard let run else { return "never" }
    let slot = run.slot.map { "slot \($0)" } ?? "one-off"
    let finished =
      run.finishedAt.map { "finished \($0)" } ?? "started \(run.startedAt)"
    return "#\(run.id) \(run.status.rawValue), \(slot), \(finished)\(run.error.map { ": \($0)" } ?? "")"
  }
}
