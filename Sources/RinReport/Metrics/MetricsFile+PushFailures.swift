import Prometheus

extension MetricsFile {
  /// `rinjobs_metrics_push_failures`: the groups the run could not push to the Pushgateway, so
  /// that a textfile scrape still shows that the pushed series are stale.
  public static func renderPushFailures(_ count: Int) -> String {
    let registry = PrometheusCollectorRegistry()
    registry.makeGauge(
      descriptor: MetricNameDescriptor(
        metricName: "rinjobs_metrics_push_failures", unitName: "",
        helpText: "Metric groups the last run failed to push to the Pushgateway (0 when every push went)."),
      labels: []
    ).set(Double(count))
    return registry.emitToString()
  }
}
