import Foundation
import Prometheus
import RinDomain
import RinJobs
import RinRuntime
import RinStorage

/// Prometheus text-format metrics for node_exporter's textfile collector, written atomically
/// (temporary file, then rename) so the collector never reads half a file.
public enum MetricsFile {
  public struct JobFacts: Sendable {
    /// A job, or a pipeline (`pipeline:NAME` in the `job` label).
    public var job: RunSubject
    public var lastSuccessAt: UTCInstant?
    public var lastDurationSeconds: Double
    public var lastRunFailed: Bool
    public var failedRuns: Int
    public var itemsRead: Int
    public var itemsWritten: Int
    public var itemsSkipped: Int
    /// Nil for a pipeline: its jobs' users are the same users, counted once per job.
    public var usersProcessed: Int?
    /// The external provider's health, for a job that calls one.
    public var provider: ProviderHealth? = nil
    /// For a pipeline with a `deadline`: how long after it its last slot finished (0 on time).
    public var deadlineLatenessSeconds: Double? = nil
    /// Every skip of the job so far, by reason (`job_skips`).
    public var skips: [String: Int] = [:]
    /// Seconds the last run spent paused, by reason (replica lag, server load, giving way to a lock,
    /// nice ratio).
    public var pausedSeconds: [String: Double] = [:]
    /// For a job with a periodic pass: owners its last run corrected with no stamp to explain it.
    public var unstampedCorrections: Int? = nil
    /// For history-retention: outbox rows queued over a day ago and still unsent.
    public var outboxUnsentOverADay: Int? = nil
  }

  public static func render(_ facts: [JobFacts]) -> String {
    let registry = PrometheusCollectorRegistry()
    for f in facts {
      let labels = [("job", f.job.description)]
      renderLastRun(f, labels: labels, into: registry)
      if let provider = f.provider { renderProvider(provider, into: registry) }
      renderSkipsAndPauses(f, labels: labels, into: registry)
      if let lateness = f.deadlineLatenessSeconds {
        gauge(
          registry,
          name: "rinjobs_deadline_lateness_seconds", labels: labels,
          help: "How long after the pipeline's deadline its last slot finished (0 when on time)."
        ).set(lateness)
      }
    }
    return registry.emitToString()
  }

  /// The last run's outcome and size, and the ledger's failures.
  private static func renderLastRun(
    _ f: JobFacts, labels: [(String, String)], into registry: PrometheusCollectorRegistry
  ) {
    if let last = f.lastSuccessAt {
      gauge(
        registry,
        name: "rinjobs_last_success_timestamp_seconds", labels: labels,
        help: "Unix time of the job's last successful real run."
      ).set(Double(last.seconds))
    }
    gauge(
      registry,
      name: "rinjobs_last_run_duration_seconds", labels: labels, help: "Wall time of the job's last run."
    ).set(f.lastDurationSeconds)
    gauge(
      registry,
      name: "rinjobs_last_run_failed", labels: labels, help: "1 when the job's last run failed."
    ).set(f.lastRunFailed ? 1.0 : 0.0)
    gauge(
      registry,
      name: "rinjobs_failed_runs", labels: labels, help: "Failed runs of the job in the run ledger."
    ).set(Double(f.failedRuns))
    if let users = f.usersProcessed {
      gauge(
        registry,
        name: "rinjobs_users_processed", labels: labels, help: "Users the job's last run processed."
      ).set(Double(users))
    }
    if let corrections = f.unstampedCorrections {
      gauge(
        registry,
        name: "rinjobs_unstamped_corrections", labels: labels,
        help:
          "Owners whose results the last run's periodic pass changed with no change stamp to explain it (a service write that did not bump updated_at)."
      ).set(Double(corrections))
    }
    if let unsent = f.outboxUnsentOverADay {
      gauge(
        registry,
        name: "rinjobs_outbox_unsent_over_a_day", labels: labels,
        help:
          "Notifications queued more than a day before the last run and still unsent (never deleted): the delivery service is not sending."
      ).set(Double(unsent))
    }
    for (kind, value) in [("read", f.itemsRead), ("written", f.itemsWritten), ("skipped", f.itemsSkipped)] {
      gauge(
        registry,
        name: "rinjobs_last_run_items", labels: labels + [("kind", kind)],
        help: "Rows the job's last run read, wrote and skipped."
      ).set(Double(value))
    }
  }

  /// Skips by reason since the database was created, and the last run's pauses by reason.
  private static func renderSkipsAndPauses(
    _ f: JobFacts, labels: [(String, String)], into registry: PrometheusCollectorRegistry
  ) {
    for (reason, count) in f.skips.sorted(by: { $0.key < $1.key }) {
      for (name, help) in [
        (
          "rinjobs_job_skipped",
          "Runs of the job that did not start or stopped early, by reason, since the database was created."
        ),
        ("rin_job_skipped", DeprecatedMetric.help(for: "rinjobs_job_skipped_total")),
      ] {
        registry.makeCounter(
          descriptor: MetricNameDescriptor(metricName: name, unitName: "total", helpText: help),
          labels: labels + [("reason", reason)]
        ).increment(by: Int64(count))
      }
    }
    for (reason, seconds) in f.pausedSeconds.sorted(by: { $0.key < $1.key }) {
      gauge(
        registry,
        name: "rinjobs_last_run_paused_seconds", labels: labels + [("reason", reason)],
        help:
          "Seconds the job's last run paused: replica lag above storage.max_replica_lag, the server's load above storage.max_load, giving way to a lock, or sleeping storage.nice_ratio of each batch's time."
      ).set(seconds)
    }
  }

  /// A provider's health as its run found it: alert on `rinjobs_provider_up == 0`.
  private static func renderProvider(_ health: ProviderHealth, into registry: PrometheusCollectorRegistry) {
    let labels = [("provider", health.provider)]
    gaugeAndAlias(
      registry,
      name: "rinjobs_provider_up", labels: labels,
      help: "1 when the enrichment provider answered the last run; 0 when its circuit breaker was open.",
      value: health.available ? 1.0 : 0.0)
    gaugeAndAlias(
      registry,
      name: "rinjobs_provider_keys_deferred", labels: labels,
      help: "Lookup keys the last run left for the next one because the provider's circuit breaker was open.",
      value: Double(health.keysDeferred))
    if let reached = health.dailyLimitReached {
      gaugeAndAlias(
        registry,
        name: "rinjobs_provider_daily_limit_reached", labels: labels,
        help: "1 when the last run stopped asking because the provider's max_lookups_per_day was reached.",
        value: reached ? 1.0 : 0.0)
    }
  }

  /// A gauge, and the same value under its name before the `rinjobs_` prefix
  /// (`DeprecatedMetric`).
  private static func gaugeAndAlias(
    _ registry: PrometheusCollectorRegistry, name: String, labels: [(String, String)], help: String,
    value: Double
  ) {
    gauge(registry, name: name, labels: labels, help: help).set(value)
    gauge(
      registry, name: DeprecatedMetric.oldName(of: name), labels: labels,
      help: DeprecatedMetric.help(for: name)
    ).set(value)
  }

  /// A gauge named exactly `name` (no unit suffix appended), with its `# HELP` line.
  static func gauge(
    _ registry: PrometheusCollectorRegistry, name: String, labels: [(String, String)], help: String
  ) -> Gauge {
    registry.makeGauge(
      descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
  }

  public static func write(_ text: String, to path: String) throws {
    try OutputFile.write(text, to: path, what: "metrics file")
  }

}

extension MetricsFile {
  /// The facts of `summary`'s job: this run, plus the ledger's last success and failures.
  public static func facts(for summary: RunSummary, storage: Storage) throws -> JobFacts {
    let (lastSuccess, failures, skips) = try storage.read { tx in
      (
        try tx.runtime.lastSuccessfulFinish(job: .job(summary.job)),
        try tx.runtime.failedRunCount(job: .job(summary.job)),
        try tx.runtime.skipCounts(job: .job(summary.job))
      )
    }
    return JobFacts(
      job: .job(summary.job), lastSuccessAt: lastSuccess,
      lastDurationSeconds: summary.durationSeconds,
      lastRunFailed: summary.status == .failed, failedRuns: failures,
      itemsRead: summary.counts.read.values.reduce(0, +),
      itemsWritten: summary.changes.tables.values.reduce(0) { $0 + $1.total },
      itemsSkipped: summary.counts.skipped.values.reduce(0, +),
      usersProcessed: summary.counts.usersProcessed, provider: summary.provider, skips: skips,
      pausedSeconds: summary.paused?.seconds ?? [:],
      unstampedCorrections: summary.counts.unstampedCorrections,
      outboxUnsentOverADay: summary.details[HistoryRetentionDetails.self].outboxUnsentOverADay
    )
  }
}
