import Foundation

/// The crontab generated from `pipelines.yaml`: one trigger line per pipeline. Cron only
/// triggers; `rinjobs pipeline run NAME --scheduled` decides from the pipeline's own zone and
/// the run ledger whether a slot is due, so each slot runs once whatever the host's zone.
public enum Crontab {
  /// Where the committed crontab expects things; the install changes only these lines.
  static let variables = [
    ("SHELL", "/bin/sh"),
    ("RINJOBS", "/opt/rin-jobs/bin/rinjobs"),
    ("RIN_CONFIG", "/opt/rin-jobs/pipelines.yaml"),
    ("RIN_LOG_DIR", "/var/log/rin-jobs"),
    ("RIN_METRICS_DIR", "/var/lib/node_exporter/textfile_collector"),
  ]

  static let header = """
    # rin-jobs crontab, generated from pipelines.yaml by `rinjobs crontab`: do not edit by hand.
    # Regenerate:  rinjobs crontab --config pipelines.yaml > crontab
    # CI runs `rinjobs crontab --check crontab --config pipelines.yaml`, which fails when they differ.
    # Install (docs/OPERATIONS.md): set the variables below to this host's paths, then
    #   crontab -u rin crontab
    #
    # How each pipeline fires exactly once per slot, whatever the host's time zone:
    # - Cron reads these lines in the host's zone, which need not be a pipeline's `timezone` and
    #   may itself change offset twice a year. So cron only triggers, and
    #   `rinjobs pipeline run NAME --scheduled` decides: it computes the pipeline's fire times in
    #   the pipeline's own IANA zone (DST rules of docs/CONTRACT.md §4) and runs the slot due now, the
    #   latest fire time in the last 10 minutes, unless the run ledger shows that slot already
    #   succeeded or failed. The pipeline's lease keeps two triggers from running it at once. A
    #   trigger with no slot due exits 0 at once and writes nothing.
    # - Every UTC offset in use is a whole number of quarter hours, so the minute of the hour
    #   modulo 15 is the same in every zone. Each line triggers, every hour, at each minute that
    #   is congruent modulo 15 to a minute of the pipeline's schedule (and, in a zone with DST, at
    #   :00, :15, :30 and :45 for the instant a spring-forward gap ends): whatever the host's zone,
    #   a trigger lands on every fire time.
    # - CRON_TZ is not used: not every cron honours it.
    # - A slot whose trigger never ran (host down, cron stopped) is missed: `rinjobs status` lists
    #   it and exits 1, and `rinjobs pipeline run NAME --catch-up all --max-age 3d` runs it.
    """

  public static func render(_ config: RinConfig) -> String {
    var lines = [header, ""]
    lines += variables.map { "\($0.0)=\($0.1)" }
    for pipeline in config.pipelines {
      lines.append("")
      let jobs = pipeline.jobs.map(\.rawValue).joined(separator: ", ")
      lines.append("# \(pipeline.name): \"\(pipeline.schedule.text)\" in \(pipeline.timezone); jobs: \(jobs)")
      lines.append("\(triggerMinutes(pipeline)) * * * * \(command(pipeline.name.rawValue))")
    }
    if !config.pipelines.isEmpty {
      lines.append("")
      lines.append(
        "# freshness: every hour, the users each output would show stale (docs/OPERATIONS.md \"Freshness\"); exit 1 when any"
      )
      lines.append("\(freshnessMinute) * * * * \(freshnessCommand)")
      lines.append("")
      lines.append(
        "# erasure: once a day, rows still about accounts or contacts deleted over 26 h ago (docs/OPERATIONS.md \"Erasure\"); exit 1 when any"
      )
      lines.append("\(erasureSchedule) \(erasureCommand)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Past the hour's pipeline triggers (:00, :15), so that an hourly run has usually ended.
  static let freshnessMinute = 50

  static let freshnessCommand = [
    "\"$RINJOBS\" freshness --record --config \"$RIN_CONFIG\"",
    "--metrics-file \"$RIN_METRICS_DIR/rinjobs-freshness.prom\"",
    ">> \"$RIN_LOG_DIR/freshness.log\" 2>&1",
  ].joined(separator: " ")

  /// Once a day, after the nightly's slot and the retention runs that follow it: the check reads
  /// every table of ours whole, which an hourly schedule would pay 24 times.
  static let erasureSchedule = "40 5 * * *"

  static let erasureCommand = [
    "\"$RINJOBS\" erasure --config \"$RIN_CONFIG\"",
    "--metrics-file \"$RIN_METRICS_DIR/rinjobs-erasure.prom\"",
    ">> \"$RIN_LOG_DIR/erasure.log\" 2>&1",
  ].joined(separator: " ")

  static func command(_ name: String) -> String {
    [
      "\"$RINJOBS\" pipeline run \(name) --scheduled --config \"$RIN_CONFIG\"",
      "--metrics-file \"$RIN_METRICS_DIR/rinjobs-\(name).prom\"",
      ">> \"$RIN_LOG_DIR/\(name).log\" 2>&1",
    ].joined(separator: " ")
  }

  /// The minute field of a pipeline's trigger line.
  package static func triggerMinutes(_ pipeline: PipelineConfig) -> String {
    var residues = Set(pipeline.schedule.minute.values.map { $0 % 15 })
    if let zone = TimeZone(identifier: pipeline.timezone), hasDaylightSaving(zone) { residues.insert(0) }
    if residues.count == 15 { return "*" }
    return (0..<60).filter { residues.contains($0 % 15) }.map(String.init).joined(separator: ",")
  }

  /// Whether the zone's offset differs between January and July (either hemisphere's DST); a
  /// fixed year keeps the generated file the same on every machine and every day.
  static func hasDaylightSaving(_ zone: TimeZone) -> Bool {
    let january = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let july = Date(timeIntervalSince1970: 1_782_864_000)  // 2026-07-01T00:00:00Z
    return zone.secondsFromGMT(for: january) != zone.secondsFromGMT(for: july)
  }

  /// The first line where `actual` differs from `expected` (1-based), for `--check`'s message.
  public static func firstDifference(expected: String, actual: String) -> (
    line: Int, expected: String, actual: String
  )? {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(a.count, b.count) {
      let left = index < a.count ? String(a[index]) : "(end of file)"
      let right = index < b.count ? String(b[index]) : "(end of file)"
      if left != right { return (index + 1, left, right) }
    }
    return nil
  }
}
