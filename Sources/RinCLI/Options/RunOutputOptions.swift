import ArgumentParser
import Foundation
import RinConfiguration
import RinDomain
import RinRuntime

/// `--json`, `--metrics-file` and `--metrics-push`: what a run of a job or a pipeline prints and
/// leaves for Prometheus.
struct RunOutputOptions: ParsableArguments {
  @Flag(help: "Print a machine-readable summary on stdout.")
  var json = false

  @Option(help: "Write Prometheus text-format metrics to this file (atomically).")
  var metricsFile: String?

  @Option(
    name: .customLong("metrics-push"),
    help: ArgumentHelp(
      "Push the run's metrics to this Prometheus Pushgateway when the run ends (overrides metrics.push_url).",
      valueName: "url"))
  var metricsPushText: String?

  /// Checked here, not in a transform: swift-argument-parser quotes a value its transform
  /// refuses as it was typed, and this one may carry credentials (`https://user:password@gw`).
  func validate() throws {
    guard let text = metricsPushText, MetricsSettings.pushURL(text) == nil else { return }
    throw ValidationError(
      "--metrics-push needs a Pushgateway's http or https URL such as http://pushgateway:9091, got '\(SecretMask.masked(text))'"
    )
  }

  /// `--metrics-push` as a URL (`validate` refused any other).
  var metricsPush: URL? { metricsPushText.flatMap(MetricsSettings.pushURL) }

  init() {}
}
