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
    help: ArgumentHelp(
      "Push the run's metrics to this Prometheus Pushgateway when the run ends (overrides metrics.push_url).",
      valueName: "url"),
    transform: { text in
      guard let url = MetricsSettings.pushURL(text) else {
        throw ValidationError(
          "--metrics-push needs a Pushgateway's http or https URL such as http://pushgateway:9091, got '\(SecretMask.masked(text))'"
        )
      }
      return url
    })
  var metricsPush: URL?

  init() {}
}
