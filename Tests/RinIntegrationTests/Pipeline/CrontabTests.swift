import Foundation
import GRDB
import Logging
import RinConfiguration
import RinJobs
import RinStorage
import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("Crontab: one trigger line per pipeline, once per slot in any host zone", .onItsOwnThread)
struct CrontabTests {
  static func config(_ pipelines: [PipelineConfig]) -> RinConfig {
    RinConfig(pipelines: pipelines, sourcePath: "pipelines.yaml")
  }

  @Test(arguments: [
    ("30 2 * * *", "UTC", "0,15,30,45"),
    ("5 */2 * * *", "UTC", "5,20,35,50"),
    ("5 2 * * *", "America/New_York", "0,5,15,20,30,35,45,50"),
    ("45 1 * * *", "Australia/Lord_Howe", "0,15,30,45"),
    ("7 3 * * *", "Asia/Kolkata", "7,22,37,52"),
    ("*/2 * * * *", "UTC", "*"),
  ])
  func triggerMinutesCoverEveryFireTimeModulo15(schedule: String, zone: String, minutes: String) throws {
    let pipeline = PipelineConfig(
      name: "p", schedule: try CronExpression(parsing: schedule), timezone: zone, jobs: [.badgeRecount])
    #expect(Crontab.triggerMinutes(pipeline) == minutes)
  }

  @Test func oneLinePerPipelineWithTheBinaryConfigLogAndMetricsAndTheHeaderSaysHow() throws {
    let text = Crontab.render(
      Self.config([
        PipelineConfig(
          name: "nightly", schedule: try CronExpression(parsing: "30 2 * * *"),
          jobs: [.dailyScore, .badgeRecount]),
        PipelineConfig(
          name: "sydney", schedule: try CronExpression(parsing: "0 6 * * MON"), timezone: "Australia/Sydney",
          jobs: [.badgeRecount]),
      ]))
    let lines = text.split(separator: "\n").map(String.init)
    let triggers = lines.filter { !$0.hasPrefix("#") && $0.contains("pipeline run") }
    #expect(
      triggers == [
        #"0,15,30,45 * * * * "$RINJOBS" pipeline run nightly --scheduled --config "$RIN_CONFIG" --metrics-file "$RIN_METRICS_DIR/rinjobs-nightly.prom" >> "$RIN_LOG_DIR/nightly.log" 2>&1"#,
        #"0,15,30,45 * * * * "$RINJOBS" pipeline run sydney --scheduled --config "$RIN_CONFIG" --metrics-file "$RIN_METRICS_DIR/rinjobs-sydney.prom" >> "$RIN_LOG_DIR/sydney.log" 2>&1"#,
      ])
    #expect(lines.contains("RINJOBS=/opt/rin-jobs/bin/rinjobs"))
    #expect(lines.contains(#"# sydney: "0 6 * * MON" in Australia/Sydney; jobs: badge-recount"#))
    #expect(text.contains("whatever the host's time zone"))
    #expect(text.contains("CRON_TZ is not used"))
    #expect(text.hasSuffix("2>&1\n"), "cron ignores a last line without a newline")
  }

  /// Cron, simulated independently: a trigger line fires at each UTC minute whose minute of
  /// the hour in the host's zone (offset from Foundation) is in the line's minute list.
  static func triggerInstants(minutes: String, hostZone: TimeZone, from: Int64, through: Int64) -> [Int64] {
    let allowed = Set(minutes == "*" ? Array(0..<60) : minutes.split(separator: ",").compactMap { Int($0) })
    return stride(from: from, through: through, by: 60).filter { instant in
      let local = instant + Int64(hostZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
      return allowed.contains(Int((local % 3_600) / 60))
    }
  }

  @Test(arguments: [
    // Lord Howe springs forward 30 minutes on 2026-10-04: 02:15 does not exist that day.
    (
      "15 2 * * *", "Australia/Lord_Howe", "2026-10-02T00:00:00Z", "2026-10-05T00:00:00Z",
      ["2026-10-02T15:45:00Z", "2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"]
    ),
    // New York falls back on 2026-11-01: 01:30 happens twice and fires once.
    (
      "30 1 * * *", "America/New_York", "2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z",
      ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]
    ),
    // London springs forward on 2026-03-29: 01:05 does not exist and fires when the gap ends.
    (
      "5 1 * * *", "Europe/London", "2026-03-28T00:00:00Z", "2026-03-31T00:00:00Z",
      ["2026-03-28T01:05:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:05:00Z"]
    ),
  ])
  func eachSlotRunsExactlyOnceWhateverTheHostZone(
    schedule: String, zone: String, from: String, through: String, expected: [String]
  ) async throws {
    let pipeline = PipelineConfig(
      name: "p", schedule: try CronExpression(parsing: schedule), timezone: zone, jobs: [.badgeRecount])
    try await Self.expectOncePerSlot(
      pipeline, minutes: Crontab.triggerMinutes(pipeline), from: from, through: through, expected: expected,
      hosts: ["UTC", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe", "America/Los_Angeles"])
  }

  /// A crontab edited to trigger every minute sees each slot ten times within the grace window:
  /// the ledger still lets it run once.
  @Test func triggersEveryMinuteStillRunEachSlotOnce() async throws {
    let pipeline = PipelineConfig(
      name: "p", schedule: try CronExpression(parsing: "30 1 * * *"), timezone: "America/New_York",
      jobs: [.badgeRecount])
    try await Self.expectOncePerSlot(
      pipeline, minutes: "*", from: "2026-10-31T23:00:00Z", through: "2026-11-02T08:00:00Z",
      expected: ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"], hosts: ["UTC", "Asia/Kathmandu"])
  }

  static func expectOncePerSlot(
    _ pipeline: PipelineConfig, minutes: String, from: String, through: String, expected: [String],
    hosts: [String]
  ) async throws {
    for hostName in hosts {
      let hostZone = try #require(TimeZone(identifier: hostName))
      let db = try TestDatabase()
      try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0)")
      let runner = PipelineRunner(
        config: RinConfig(storage: StorageSettings(url: db.path), pipelines: [pipeline], sourcePath: "test"),
        storage: db.storage, logger: Logger(label: "test"), jobs: { JobCatalog.job($0) })
      let triggers = Self.triggerInstants(
        minutes: minutes, hostZone: hostZone, from: try instant(from),
        through: try instant(through))
      for trigger in triggers {
        var options = PipelineRunOptions()
        options.scheduled = true
        options.now = .init(seconds: trigger)
        let report = await runner.run(pipeline, options: options)
        #expect(report.exitCode == .success)
      }
      let slots = try db.strings(
        "SELECT slot FROM job_runs WHERE job = 'pipeline:p' AND status = 'succeeded' ORDER BY id")
      #expect(slots == expected, "host zone \(hostName)")
      #expect(
        try db.int("SELECT count(*) FROM job_runs WHERE job = 'pipeline:p'") == expected.count,
        "host zone \(hostName)")
    }
  }
}
