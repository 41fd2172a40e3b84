import ArgumentParser
import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage

/// `rinjobs backfill JOB --from DATE --to DATE`: one run of a dated job per day, in order, each in
/// the ledger. Stops at the first day that does not succeed (exit 1, naming it); the same command
/// again continues from there, since days that succeeded are skipped (`--reprocess missing`).
struct BackfillCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backfill",
    abstract: "Run a dated job (daily-score) once per day over a range, resuming where it stopped.")

  /// Jobs whose work is a function of `--as-of`: a day of theirs can be computed again later.
  static let datedJobs: [JobName] = [.dailyScore]

  // Read through `transform`, so that the help names the dated jobs only, not every job.
  @Argument(
    help: "The job: \(BackfillCommand.datedJobs.map(\.rawValue).joined(separator: ", ")).",
    transform: { text in
      guard let job = JobName(rawValue: text) else {
        throw ValidationError(
          "'\(text)' is not a job; backfill runs \(BackfillCommand.datedJobs.map(\.rawValue).joined(separator: ", "))"
        )
      }
      return job
    })
  var job: JobName

  @OptionGroup var storage: StorageOptions

  @Option(help: "The first day, YYYY-MM-DD.", transform: CalendarDate.parse(argument:))
  var from: CalendarDate
  @Option(help: "The last day, YYYY-MM-DD (included).", transform: CalendarDate.parse(argument:))
  var to: CalendarDate

  @Option(
    help:
      "Which days to run: missing (no succeeded run yet), failed (latest run failed or was interrupted), all."
  )
  var reprocess: BackfillPlan.Reprocess = .missing

  @Flag(help: "Newest day first.") var backwards = false

  @Flag(help: "List the days and what each would do; run nothing.") var dryRun = false

  @Flag(help: "Run more than \(BackfillCommand.daysWithoutYes) days at once.") var yes = false

  @Flag(name: .long, help: "Allow a --to after today's date (UTC; the day of --now when given).")
  var allowFuture = false

  @OptionGroup var clock: ClockOptions

  /// More days than this at once need `--yes`: a typo in `--from` should not start years of runs.
  static let daysWithoutYes = 31

  func validate() throws {
    if !allowFuture, let problem = CalendarDate.futureProblem(to, option: "--to", now: clock.now) {
      throw ValidationError(problem)
    }
    guard from <= to else { throw ValidationError("--from \(from) is after --to \(to)") }
    guard from.days(until: to) < 3_660 else {
      throw ValidationError("--from … --to spans more than ten years")
    }
    guard Self.datedJobs.contains(job) else {
      throw ValidationError(
        "backfill runs jobs that compute for a date (\(Self.datedJobs.map(\.rawValue).joined(separator: ", "))); \(job.rawValue) works on the present only"
      )
    }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs backfill") {
      LogSetup.bootstrap()
      let config = try storage.loadConfig()
      if let refusal = Self.beforeTheSnapshotWindow(from, config: config, now: clock.now ?? .now) {
        throw CLIFailure(.usage, refusal)
      }
      let opened = try storage.openStorage(config, dryRun: dryRun)
      let history = try opened.read {
        try $0.runtime.backfillHistory(job: job, from: from, through: to)
      }
      let plan = BackfillPlan.make(
        BackfillPlan.dates(from: from, to: to, backwards: backwards),
        history: history.mapValues {
          BackfillPlan.History(succeededRunID: $0.succeeded, latest: $0.latest)
        }, reprocess: reprocess)
      let runs = plan.days.count { if case .run = $0.action { true } else { false } }
      if dryRun {
        for day in plan.days { print("\(day.date)  \(Self.describe(day.action))") }
        print("dry run: \(runs) of \(plan.days.count) days would run; nothing ran")
        return
      }
      if runs > Self.daysWithoutYes && !yes {
        throw CLIFailure(
          .usage,
          "\(from) … \(to) would run \(job.rawValue) for \(runs) days (\(plan.days.count - runs) of \(plan.days.count) already done), more than \(Self.daysWithoutYes) at once; nothing ran. Pass --yes to run them, or --dry-run to list them first."
        )
      }
      print(
        "backfill \(job.rawValue) \(from) … \(to): \(runs) of \(plan.days.count) days to run, \(plan.days.count - runs) already done"
      )
      let stop = StopSignal()
      stop.trapTerminationSignals(recordingIn: opened)
      let runner = JobRunner(
        config: config, storage: opened, logger: Logger(label: "rinjobs.backfill"), stop: stop)
      let implementation = JobCatalog.job(job)
      var ran = 0
      for day in plan.days {
        guard case .run = day.action else {
          print("\(day.date)  \(Self.describe(day.action))")
          continue
        }
        var options = RunOptions()
        options.asOf = day.date
        options.now = clock.now
        let summary = await runner.run(implementation, options: options)
        print(
          "\(day.date)  run \(summary.runID.map(String.init) ?? "-") \(summary.status.rawValue) in \(summary.durationSeconds) s"
        )
        guard summary.exitCode == .success else {
          let code: RinExitCode = summary.exitCode == .temporary ? .temporary : .failure
          throw CLIFailure(
            code,
            "stopped at \(day.date): \(job.rawValue) run \(summary.runID.map(String.init) ?? "-") \(summary.status.rawValue): \(summary.error ?? "no error recorded"); after \(ran) days. Run the same command again to continue from \(day.date)"
          )
        }
        ran += 1
      }
      print("backfill \(job.rawValue) \(from) … \(to): \(ran) days ran, \(plan.days.count - ran) skipped")
    }
  }

  /// A day before the score-snapshot window would be computed only for history-retention's next
  /// run to delete it, and its outbox rows may be gone already (so its notifications could be
  /// sent twice): refused before anything runs, naming the window and where it is set.
  static func beforeTheSnapshotWindow(_ from: CalendarDate, config: RinConfig, now: UTCInstant) -> String? {
    let window = config.jobs[HistoryRetentionJob.self].keep.scoreSnapshots
    let firstDay = HistoryWindows.firstSnapshotDayKept(now: now, window: window)
    guard from < firstDay else { return nil }
    return
      "--from \(from) is before \(firstDay), the first day whose score snapshots are kept (jobs.history-retention.keep.score_snapshots: \(DurationFormat.format(window)), in \(config.sourcePath)): history-retention would delete what the backfill wrote. Backfill from \(firstDay) on, or widen that window first (docs/OPERATIONS.md \"Retention\"); nothing ran."
  }

  static func describe(_ action: BackfillPlan.Action) -> String {
    switch action {
    case .run(let why): "run (\(why))"
    case .skip(let why): "skip: \(why)"
    }
  }
}

extension BackfillPlan.Reprocess: ExpressibleByArgument {}
