import RinConfiguration
import RinDomain

/// Which slots a slotted pipeline run takes on, decided from the schedule and the ledger.
public struct SlotPlan: Sendable {
  /// Oldest first.
  public var run: [FireTime] = []
  /// Missed slots `--catch-up latest` replaces by the newest one.
  public var supersede: [FireTime] = []
  /// Why nothing runs, when `run` is empty: "not due", "already succeeded", …
  public var idleReason: String?
  /// The skip reason of an idle plan, for the counters.
  var idleKind: SkipReason?

  /// `--scheduled`: the due slot is the latest fire time in (now − grace, now]. It runs unless
  /// it succeeded, failed (a failure is retried only by `--catch-up`, so a broken pipeline is
  /// not rerun by every trigger) or is running. `--catch-up` adds every slot in
  /// [now − max-age, now] that is not done or running, failed ones included.
  static func make(
    schedule: CronSchedule, now: UTCInstant, options: PipelineRunOptions,
    states load: ([FireTime]) throws -> [UTCInstant: SlotState]
  ) throws -> SlotPlan {
    let due = schedule.fires(from: now - options.grace + .seconds(1), through: now).last
    var candidates: [FireTime] = []
    if let maxAge = options.maxAge, options.catchUp != nil {
      candidates = schedule.fires(from: now - maxAge, through: now)
    }
    if options.scheduled, let due, !candidates.contains(due) { candidates.append(due) }
    let states = try load(candidates)
    var plan = SlotPlan()
    if options.catchUp == nil {
      guard let due else {
        plan.idleReason = notDue(schedule: schedule, now: now, grace: options.grace)
        plan.idleKind = .notDue
        return plan
      }
      switch states[due.slot] ?? .missing {
      case .missing, .incomplete: plan.run = [due]
      case let state:
        plan.idleReason = "slot \(due.slot) \(describe(state)); nothing to do"
        plan.idleKind = .alreadyDone
      }
      return plan
    }
    let owed = candidates.filter { fire in
      switch states[fire.slot] ?? .missing {
      case .missing, .incomplete, .failed: true
      case .succeeded, .superseded, .paused, .running: false
      }
    }
    switch options.catchUp {
    case .latest?:
      plan.run = owed.last.map { [$0] } ?? []
      plan.supersede = Array(owed.dropLast())
    default:
      plan.run = owed
    }
    if owed.isEmpty {
      let since = now - (options.maxAge ?? .zero)
      plan.idleReason =
        candidates.isEmpty
        ? "no slot fell in the last \(DurationFormat.format(options.maxAge ?? .zero)) (since \(since)); nothing to catch up"
        : "every slot since \(since) succeeded or is running; nothing to catch up"
      plan.idleKind = candidates.isEmpty ? .notDue : .alreadyDone
    }
    return plan
  }

  static func describe(_ state: SlotState) -> String {
    switch state {
    case .missing: "has not run"
    case .succeeded(let id, _): "already succeeded (run \(id))"
    case .superseded(let by): "was superseded by slot \(by)"
    case .paused(let id): "was skipped while the pipeline was paused (run \(id))"
    case .running(let id): "is running now (run \(id))"
    case .failed(let id, _):
      "already failed (run \(id)); `rinjobs status` reports it and `pipeline run --catch-up` retries it"
    case .incomplete(let id, let status): "did not finish (run \(id) \(status.rawValue))"
    }
  }

  private static func notDue(schedule: CronSchedule, now: UTCInstant, grace: Duration) -> String {
    let next = schedule.next(from: now + .seconds(1)).map { "; next slot \($0.slot)" } ?? ""
    return "not due: no slot in the last \(DurationFormat.format(grace)) (the grace window)\(next)"
  }
}
