/// The metrics that also carry an old name, `rin_…` for their `rinjobs_…`. The textfile carries
/// them under both names for one release, so that dashboards and alerts written against the old
/// names keep working while they move; the release after drops the old names (CHANGELOG).
enum DeprecatedMetric {
  /// `rinjobs_provider_up` → `rin_provider_up`.
  static func oldName(of name: String) -> String {
    "rin_" + name.dropFirst("rinjobs_".count)
  }

  static func help(for name: String) -> String {
    "Deprecated alias of \(name), kept for one release: use \(name)."
  }
}
