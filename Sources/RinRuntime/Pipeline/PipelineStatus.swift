import RinConfiguration
import RinDomain
import RinStorage

/// One pipeline's health over a look-back window, for `rinjobs status`: its last run, and the
/// slots the schedule owed that never ran or failed. Monitoring alerts on `problems > 0`.
public struct PipelineStatus: Sendable, Encodable {
  public struct Problem: Sendable, Encodable, Equatable {
    /// In ISO 8601, as `status --json` always printed it.
    @AsText public var slot: UTCInstant
    public var runID: RunID?
    /// For a failed slot, the ledger's error; for a missed one, what became of its run if any
    /// (interrupted, abandoned, skipped while another run held the lease).
    public var detail: String?
  }

  public var pipeline: PipelineName
  public var schedule: String
  public var timezone: String
  /// The slots examined are those in [windowStart, now]: the look-back window, or less when the
  /// ledger's first slot of this pipeline is later (slots before a pipeline ever ran are not owed).
  public var windowStart: String
  public var now: String
  public var lastRun: RunRecord?
  public var nextSlot: String?
  public var slotsExpected = 0
  public var slotsSucceeded = 0
  /// Missed slots that `--catch-up latest` replaced by a later one: owed nothing, not run.
  public var slotsSuperseded = 0
  /// Slots a run holds now.
  public var running: [String] = []
  /// Slots still inside the grace window that have not run yet: not a problem yet.
  public var due: [String] = []
  public var missed: [Problem] = []
  /// With `deadline`: slots that succeeded after their deadline, or are still running past it
  /// (slots missed or failed are listed as such).
  public var late: [Problem] = []
  public var failed: [Problem] = []
  /// The external providers the pipeline's jobs call, as their last run found them.
  public var providers: [ProviderHealth] = []
  /// Set while the pipeline is paused (`rinjobs pipeline pause`): not a problem.
  public var paused: PipelinePause?
  /// Slots whose time came while the pipeline was paused: skipped, not owed.
  public var slotsPaused = 0

  public var problems: Int { missed.count + failed.count + late.count }

  public static func compute(
    _ pipeline: PipelineConfig, storage: Storage, now: UTCInstant, lookBack: Duration, grace: Duration,
    staleBefore: UTCInstant
  ) throws -> PipelineStatus {
    guard let schedule = CronSchedule(pipeline: pipeline) else {
      throw RunFailure(.configuration, "pipeline \(pipeline.name): unknown time zone '\(pipeline.timezone)'")
    }
    let (firstSlot, lastRun, paused) = try storage.read { tx in
      (
        try tx.runtime.earliestPipelineSlot(pipeline.name), try tx.runtime.lastPipelineRun(pipeline.name),
        try tx.runtime.pipelinePause(pipeline.name)
      )
    }
    let start = max(now - lookBack, firstSlot ?? now - lookBack)
    var status = PipelineStatus(
      pipeline: pipeline.name, schedule: pipeline.schedule.text, timezone: pipeline.timezone,
      windowStart: start.description, now: now.description, lastRun: lastRun,
      nextSlot: schedule.next(from: now + .seconds(1))?.slot.description)
    status.paused = paused
    let fires = schedule.fires(from: start, through: now)
    let states = try SlotState.load(
      fires, pipeline: pipeline.name, storage: storage, staleBefore: staleBefore)
    for fire in fires {
      if let deadline = pipeline.deadline,
        let lateness = Self.lateness(
          states[fire.slot] ?? .missing, due: fire.slot + deadline, now: now)
      {
        status.late.append(Problem(slot: fire.slot, runID: lateness.runID, detail: lateness.detail))
      }
      status.slotsExpected += 1
      switch states[fire.slot] ?? .missing {
      case .succeeded: status.slotsSucceeded += 1
      case .superseded: status.slotsSuperseded += 1
      case .paused: status.slotsPaused += 1
      case .running: status.running.append(fire.slot.description)
      case .failed(let runID, let error):
        status.failed.append(Problem(slot: fire.slot, runID: runID, detail: error))
      case .missing where fire.slot > now - grace: status.due.append(fire.slot.description)
      case .missing: status.missed.append(Problem(slot: fire.slot, runID: nil, detail: nil))
      case .incomplete(let runID, let runStatus):
        status.missed.append(
          Problem(slot: fire.slot, runID: runID, detail: "run \(runID) \(runStatus.rawValue)"))
      }
    }
    return status
  }

  /// How a slot due by `due` missed it, if it did: it succeeded after, or still runs past it.
  static func lateness(_ state: SlotState, due: UTCInstant, now: UTCInstant) -> (
    runID: RunID?, detail: String
  )? {
    switch state {
    case .succeeded(let id, let finished?) where finished > due:
      return (id, "finished \(DurationFormat.format(finished - due)) after its deadline \(due)")
    case .running(let id) where now > due:
      return (id, "still running \(DurationFormat.format(now - due)) after its deadline \(due)")
    default:
      return nil
    }
  }
}
