import Prometheus
import RinDomain

/// The metrics of `rinjobs footprint` (docs/OPERATIONS.md "Footprint"), in the same text format
/// as a run's: the file of `--metrics-file` and the Pushgateway group `job="footprint"`.
extension MetricsFile {
  /// The Pushgateway group's job label of `rinjobs footprint`.
  public static let footprintJob = "footprint"

  /// `rinjobs_table_bytes{table, group}`, one series per table and group (an input table appears
  /// under `services` with its heap, key and services' index, and under `our_indexes` with the
  /// indexes the jobs added on it), and `rinjobs_footprint_kept_ratio` when the services' tables
  /// hold anything.
  public static func render(footprint: Footprint) -> String {
    let registry = PrometheusCollectorRegistry()
    for entry in footprint.bytesByTableAndGroup {
      gauge(
        registry, name: "rinjobs_table_bytes",
        labels: [("table", entry.table), ("group", entry.group.rawValue)],
        help:
          "Bytes of a table and its indexes in a footprint group (services, our_indexes, outputs, cache, state), as rinjobs footprint measured them."
      ).set(Double(entry.bytes))
    }
    if let ratio = footprint.keptToServices {
      gauge(
        registry, name: "rinjobs_footprint_kept_ratio", labels: [],
        help:
          "Bytes rin-jobs keeps for itself (state + cache + our_indexes) over the services' own (input tables, their keys and owner indexes)."
      ).set(ratio)
    }
    gauge(
      registry, name: "rinjobs_footprint_users", labels: [],
      help: "Rows of users when rinjobs footprint measured, for bytes per user."
    ).set(Double(footprint.users))
    return registry.emitToString()
  }
}
