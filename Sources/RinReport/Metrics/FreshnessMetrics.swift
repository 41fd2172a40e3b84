import Prometheus
import RinDomain
import RinRuntime

/// The metrics of a freshness check (docs/OPERATIONS.md "Freshness"), in the same text format
/// as a run's: the file of `--metrics-file` and the Pushgateway group `job="freshness"`.
extension MetricsFile {
  /// The Pushgateway group's job label of `rinjobs freshness`.
  public static let freshnessJob = "freshness"

  public static func render(freshness result: FreshnessResult) -> String {
    let registry = PrometheusCollectorRegistry()
    for tally in result.tallies {
      let output = tally.promise.output.rawValue
      gauge(
        registry, name: "rinjobs_stale_users", labels: [("output", output), ("shard", "all")],
        help: "Users the output promises a result to who would see a stale one (shard=\"all\": every shard)."
      ).set(Double(tally.stale))
      if let count = result.shardCount {
        for (index, counts) in tally.byShard.sorted(by: { $0.key < $1.key }) {
          gauge(
            registry, name: "rinjobs_stale_users", labels: [("output", output), ("shard", "\(index)/\(count)")],
            help: "Users the output promises a result to who would see a stale one (shard=\"all\": every shard)."
          ).set(Double(counts.stale))
        }
      }
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
    gauge(
      registry, name: "rinjobs_freshness_checked_timestamp_seconds", labels: [],
      help: "When the freshness check ran (its --now), in Unix seconds."
    ).set(Double(result.now.seconds))
    return registry.emitToString()
  }
}
