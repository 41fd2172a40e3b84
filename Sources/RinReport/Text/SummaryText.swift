import RinDomain
import RinRuntime
import RinStorage

/// The human summary of a run, printed on stdout when `--json` is not given.
public enum SummaryText {
  public static func render(_ s: RunSummary) -> String {
    var lines: [String] = []
    let mode = s.dryRun ? "dry run" : "run"
    let who = s.users.map { "users \($0)" } ?? (s.shard == .all ? "all users" : "shard \(s.shard)")
    lines.append(
      "\(s.job) \(mode) \(s.runID.map { "#\($0) " } ?? "")\(s.status.rawValue) in \(s.durationSeconds) s (as of \(s.asOf.map(\.description) ?? "-"), \(who))"
    )
    if let resumed = s.resumedAfterUser { lines.append("  resumed after user \(resumed)") }
    if s.counts.usersProcessed > 0 || s.status == .succeeded {
      lines.append("  users processed: \(s.counts.usersProcessed)")
    }
    for (what, n) in s.counts.read.sorted(by: { $0.key < $1.key }) where what != "users" {
      lines.append("  read \(what): \(n)")
    }
    for (reason, n) in s.counts.skipped.sorted(by: { $0.key < $1.key }) {
      lines.append("  skipped \(n): \(reason)")
    }
    if let corrections = s.counts.unstampedCorrections {
      lines.append("  unstamped corrections (owners the periodic pass changed, no stamp): \(corrections)")
    }
    let verb = s.dryRun ? "would " : ""
    if s.changes.isEmpty && s.status == .succeeded {
      lines.append("  \(s.dryRun ? "would change" : "changed") nothing")
    }
    for (table, c) in s.changes.tables.sorted(by: { $0.key < $1.key }) where c.total > 0 {
      var parts: [String] = []
      if c.inserted > 0 { parts.append("\(verb)insert \(c.inserted)") }
      if c.updated > 0 { parts.append("\(verb)update \(c.updated)") }
      if c.deleted > 0 { parts.append("\(verb)delete \(c.deleted)") }
      lines.append("  \(table): \(parts.joined(separator: ", "))")
      for sample in c.samples { lines.append("      e.g. \(sample)") }
    }
    for (kind, n) in s.changes.notifications.sorted(by: { $0.key < $1.key }) {
      lines.append("  notifications \(s.dryRun ? "that would be " : "")queued: \(n) \(kind)")
    }
    for (key, value) in s.details.texts.sorted(by: { $0.key < $1.key }) {
      lines.append("  \(key.replacingOccurrences(of: "_", with: " ")): \(value)")
    }
    if let provider = s.provider, !provider.available {
      lines.append(
        "  provider \(provider.provider) UNAVAILABLE (\(provider.cause ?? "circuit breaker open")): \(provider.keysDeferred) keys deferred to the next run"
      )
    }
    for (reason, seconds) in (s.paused?.seconds ?? [:]).sorted(by: { $0.key < $1.key }) {
      let times = s.paused?.count[reason] ?? 0
      lines.append("  paused (\(reason)): \(seconds) s in \(times) pause\(times == 1 ? "" : "s")")
    }
    if let batches = s.paused?.batchSeconds {
      // Beside the pauses, what they weigh against: `nice ratio` sleeps a share of it.
      lines.append("  in batches' transactions: \(batches) s")
    }
    if let error = s.error { lines.append("  error: \(error)") }
    return lines.joined(separator: "\n")
  }
}
