import Prometheus
import RinDomain
import RinRuntime

/// The metrics of a freshness check (docs/OPERATIONS.md "Freshness"), in the same text format
/// as a run's: the file of `--metrics-file` and the Pushgateway group `job="freshness"`.
extension MetricsFile {
  /// The Pushgateway group's job label of `rinjobs freshness`.
  public static let freshnessJob = "freshness"

  /// Everything, for `--metrics-file`.
  public static func render(freshness result: FreshnessResult) -> String {
    render(freshness: result, shard: nil)
  }

  /// The Pushgateway groups of a check: `shard="all"` with every gauge, and with `--shards N` one
  /// group per shard holding that shard's `rinjobs_stale_users` (the gateway refuses a series
  /// whose `shard` label differs from its group's).
  public static func freshnessGroups(_ result: FreshnessResult) -> [(shard: String, text: String)] {
    var groups = [(shard: "all", text: render(freshness: result, shard: "all"))]
    if let count = result.shardCount {
      for index in 0..<count {
        let shard = "\(index)/\(count)"
        groups.append((shard, render(freshness: result, shard: shard)))
      }
    }
    return groups
  }

  /// `shard` nil: every series; `all`: all but the per-shard counts; `K/N`: that shard's counts.
  static func render(freshness result: FreshnessResult, shard: String?) -> String {
    let registry = PrometheusCollectorRegistry()
    let staleHelp =
      "Users the output promises a result to who would see a stale one (shard=\"all\": every shard)."
    for tally in result.tallies {
      let output = tally.promise.output.rawValue
      if let count = result.shardCount, shard != "all" {
        for (index, counts) in tally.byShard.sorted(by: { $0.key < $1.key })
        where shard == nil || shard == "\(index)/\(count)" {
          gauge(
            registry, name: "rinjobs_stale_users",
            labels: [("output", output), ("shard", "\(index)/\(count)")],
            help: staleHelp
          ).set(Double(counts.stale))
        }
      }
      guard shard == nil || shard == "all" else { continue }
      gauge(
        registry, name: "rinjobs_stale_users", labels: [("output", output), ("shard", "all")], help: staleHelp
      )
      .set(Double(tally.stale))
      gauge(
        registry, name: "rinjobs_freshness_users", labels: [("output", output)],
        help: "Users the output promises a result to: live, created at least its max_age ago."
      ).set(Double(tally.users))
      gauge(
        registry, name: "rinjobs_freshness_oldest_seconds", labels: [("output", output)],
        help: "How old the oldest result a stale user sees is, in seconds (0 when no user is stale)."
      ).set(Double(tally.oldestAge(now: result.now)))
      gauge(
        registry, name: "rinjobs_freshness_max_age_seconds", labels: [("output", output)],
        help: "The output's promise: how old a result may be before its user counts stale."
      ).set(Double(tally.promise.maxAge.components.seconds))
    }
    guard shard == nil || shard == "all" else { return registry.emitToString() }
    gauge(
      registry, name: "rinjobs_freshness_checked_timestamp_seconds", labels: [],
      help: "When the freshness check ran (its --now), in Unix seconds."
    ).set(Double(result.now.seconds))
    return registry.emitToString()
  }
}
