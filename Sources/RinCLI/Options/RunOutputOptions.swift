import ArgumentParser

/// `--json` and `--metrics-file`: what a run of a job or a pipeline prints and leaves for
/// Prometheus.
struct RunOutputOptions: ParsableArguments {
  @Flag(help: "Print a machine-readable summary on stdout.")
  var json = false

  @Option(help: "Write Prometheus text-format metrics to this file (atomically).")
  var metricsFile: String?

  init() {}
}
