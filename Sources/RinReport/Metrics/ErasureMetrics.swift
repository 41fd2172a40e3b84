import Prometheus
import RinDomain

/// The metrics of `rinjobs erasure` (docs/OPERATIONS.md "Erasure"), in the same text format as a
/// run's: the file of `--metrics-file` and the Pushgateway group `job="erasure"`.
extension MetricsFile {
  /// The Pushgateway group's job label of `rinjobs erasure`.
  public static let erasureJob = "erasure"

  /// `rinjobs_erasure_lingering_rows{table}` for every table checked (0 included, so that an
  /// alert's series exists before anything lingers), and
  /// `rinjobs_erasure_deleted_by_timestamp_seconds`.
  public static func render(erasure: ErasureCheckResult) -> String {
    let registry = PrometheusCollectorRegistry()
    for table in erasure.tables {
      gauge(
        registry, name: "rinjobs_erasure_lingering_rows", labels: [("table", table.table)],
        help:
          "Rows of a table of ours still about an account or contact deleted longer ago than rinjobs erasure's window, or removed outright."
      ).set(Double(table.rows))
    }
    gauge(
      registry, name: "rinjobs_erasure_deleted_by_timestamp_seconds", labels: [],
      help: "The deletions rinjobs erasure held to: those at or before this Unix time."
    ).set(Double(erasure.deletedBy.seconds))
    return registry.emitToString()
  }
}
