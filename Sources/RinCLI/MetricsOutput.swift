import Foundation
import Logging
import RinDomain
import RinReport
import RinRuntime

/// Where a finished run's metrics go: the `--metrics-file` (node_exporter's textfile collector)
/// and the Pushgateway (`--metrics-push`, `metrics.push_url`), the same text in both. Neither can
/// change the run's exit code: a failure is a warning, and a failed push is counted in the file
/// (`rinjobs_metrics_push_failures`) for whoever still scrapes it.
enum MetricsOutput {
  static func emit(
    _ facts: [MetricsFile.JobFacts], file: String?, pushURL: URL?, pipeline: PipelineName?, shard: ShardSpec?,
    command: String
  ) async {
    var failedPushes = 0
    if let pushURL {
      let shardLabel = MetricsPush.shardLabel(shard, environment: ProcessInfo.processInfo.environment)
      let groups = facts.map { f in
        MetricsPush.Group(
          job: f.job.description, pipeline: pipeline?.rawValue ?? "", shard: shardLabel,
          text: MetricsFile.render([f]))
      }
      let outcome = await MetricsPush(baseURL: pushURL, logger: Logger(label: "rinjobs")).push(groups)
      failedPushes = outcome.failedPushes
    }
    if let file {
      OutputCheck.warnOnFailure(command) {
        var text = MetricsFile.render(facts)
        if pushURL != nil { text += MetricsFile.renderPushFailures(failedPushes) }
        try MetricsFile.write(text, to: file)
      }
    }
  }
}

extension MetricsOutput {
  /// A check's metrics (`rinjobs footprint`, `rinjobs erasure`, `rinjobs freshness`): `text` in
  /// the file, and each of `groups` (a shard's text each) pushed as the group `job`, shard.
  static func emitCheck(
    _ text: String, job: String, groups: [(shard: String, text: String)]? = nil, file: String?, pushURL: URL?,
    command: String
  ) async {
    var failedPushes = 0
    if let pushURL {
      let pushed = (groups ?? [("all", text)]).map {
        MetricsPush.Group(job: job, pipeline: "", shard: $0.shard, text: $0.text)
      }
      failedPushes = await MetricsPush(baseURL: pushURL, logger: Logger(label: "rinjobs")).push(pushed)
        .failedPushes
    }
    if let file {
      OutputCheck.warnOnFailure(command) {
        try MetricsFile.write(text + MetricsFile.renderPushFailures(failedPushes), to: file)
      }
    }
  }
}
