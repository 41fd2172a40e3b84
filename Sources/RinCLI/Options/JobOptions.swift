import ArgumentParser
import RinDomain
import RinRuntime

/// The options every job takes (docs/CONTRACT.md §4), for `rinjobs run JOB` and `rin-JOB` alike.
public struct JobOptions: ParsableArguments {
  @OptionGroup var storage: StorageOptions

  @Flag(name: .long, help: "Show what would change; commit nothing, call no paid API.")
  var dryRun = false

  @Option(
    name: .long, help: "The date to compute for, YYYY-MM-DD (default: today, UTC).",
    transform: CalendarDate.parse(argument:))
  var asOf: CalendarDate?

  @Flag(name: .long, help: "Allow an --as-of after today's date (UTC; the day of --now when given).")
  var allowFuture = false

  @OptionGroup var clock: ClockOptions

  @Option(name: .long, parsing: .unconditionalSingleValue, help: "Only this user id (repeatable).")
  var user: [Int64] = []

  @Option(
    name: .long, help: "Users with id mod N = K: K/N, or auto/N to read K from JOB_COMPLETION_INDEX.",
    transform: ShardSpec.parse(argument:))
  var shard: ShardSpec?

  @OptionGroup var output: RunOutputOptions

  @OptionGroup var lease: LeaseWaitOptions

  @Flag(
    name: .long,
    help:
      "Examine every user, also those a job would skip as unchanged since its last run (circle-patterns, enrichment-fetch, daily-score, upcoming-birthdays)."
  )
  var full = false

  public init() {}

  public func validate() throws {
    if let bad = user.first(where: { $0 <= 0 }) {
      throw ValidationError("--user \(bad): user ids are positive whole numbers")
    }
    if let asOf, !allowFuture,
      let problem = CalendarDate.futureProblem(asOf, option: "--as-of", now: clock.now)
    {
      throw ValidationError(problem)
    }
  }

  /// The options as the runtime takes them.
  var runOptions: RunOptions {
    var options = RunOptions()
    options.dryRun = dryRun
    options.asOf = asOf
    options.now = clock.now
    options.userIDs = user.map(UserID.init(rawValue:))
    options.shard = shard
    options.json = output.json
    options.metricsFile = output.metricsFile
    options.wait = lease.duration
    options.full = full
    return options
  }
}
