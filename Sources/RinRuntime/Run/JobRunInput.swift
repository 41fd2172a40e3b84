import Logging
import RinConfiguration
import RinDomain
import RinStorage

/// What one run of one job is given, built once by the runner before the job starts and never
/// changed: which run, the settings, the clock, the users, where it resumes, and the limits it
/// keeps. A job reads it through its `JobContext` (`context.now`, `context.config`).
public struct JobRunInput: Sendable {
  public let job: JobName
  public let runID: RunID
  public let config: RinConfig
  /// For the runtime's own bookkeeping (checkpoints, pacing); a job behaves the same either way.
  let dryRun: Bool
  /// The date the run computes for (default: the UTC date of `now`).
  public let asOf: CalendarDate
  /// The job's clock (`--now`, default the real time at start).
  public let now: UTCInstant
  /// The runtime's wall clock (`RuntimeEnvironment.wallClock`): what workers sharing a
  /// provider's rate and key claims compare. Not `now`, which `--now` may set in the past.
  public let wallClock: WallClock
  public let logger: Logger
  /// The users this run selects (shard, `--user`).
  let selection: UserSelection
  let checkpointScope: CheckpointScope
  /// Set when this run resumes an unfinished one.
  public let resumeAfterUserID: UserID?
  /// The process environment as the runner sees it (secrets such as an API key come from here;
  /// tests pass their own).
  public let environment: [String: String]
  /// `--full`: a job that skips what did not change since its last run examines everything.
  public let fullPass: Bool
  /// `jobs.<job>.timeout`, when set.
  let deadline: RunDeadline?
  /// How long a batch's transaction aims to take (`storage.batch_target`).
  let batchTarget: Duration?
  /// `storage.max_replica_lag`, on PostgreSQL: nil checks no standby.
  let maxReplicaLag: Duration?
  /// `storage.nice_ratio`, `max_load`, `critical_load`, `synchronous_commit`; the load limits
  /// only on PostgreSQL.
  let pacing: StorageSettings.Pacing
}

extension JobRunInput {
  /// The run as `JobRunner` prepared it: its ledger row's id, clock, users and checkpoint, the
  /// options, and the storage settings for the backend it runs on.
  init(
    _ job: JobName, runID: RunID, prepared: JobRunner.Prepared, resume: Checkpoint?, options: RunOptions,
    runner: JobRunner, isPostgres: Bool, started: ContinuousClock.Instant, logger: Logger
  ) {
    let config = runner.config
    self.job = job
    self.runID = runID
    self.config = config
    dryRun = options.dryRun
    asOf = prepared.asOf
    now = prepared.now
    wallClock = runner.environment.wallClock
    self.logger = logger
    selection = prepared.selection
    checkpointScope = prepared.checkpointScope
    resumeAfterUserID = resume?.lastUserID
    environment = options.dryRun ? runner.dryRunVariables : runner.environment.variables
    fullPass = options.full
    deadline = config.jobs.timeout(for: job).map { RunDeadline(job: job, timeout: $0, at: started + $0) }
    batchTarget = config.storage.batchTarget(isPostgres: isPostgres)
    maxReplicaLag = isPostgres ? config.storage.maxReplicaLag : nil
    pacing = config.storage.pacing(isPostgres: isPostgres)
  }
}
