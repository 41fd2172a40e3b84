import RinConfiguration
import RinDomain
import RinStorage

/// What the run ledger says of one slot of a pipeline, from its real pipeline rows.
public enum SlotState: Sendable, Equatable {
  /// No run was ever recorded for it.
  case missing
  /// `finishedAt`: on the wall clock, for deadlines.
  case succeeded(runID: RunID, finishedAt: UTCInstant?)
  /// A missed slot that `--catch-up latest` replaced by a later one.
  case superseded(by: UTCInstant)
  /// Its time came while the pipeline was paused: skipped on purpose, not owed.
  case paused(runID: RunID)
  /// A run holds it now (its heartbeat is fresh).
  case running(runID: RunID)
  case failed(runID: RunID, error: String?)
  /// Started but never finished: interrupted, abandoned, skipped while another run held the
  /// pipeline's lease, or `running` with a heartbeat gone stale.
  case incomplete(runID: RunID, status: RunRecord.Status)

  /// Nothing more is owed for this slot.
  public var isDone: Bool {
    switch self {
    case .succeeded, .superseded, .paused: true
    default: false
    }
  }

  /// `runs` are one slot's rows, oldest first. A row still `running` whose heartbeat (or start)
  /// is older than `staleBefore` (on the wall clock) belongs to a process that died.
  static func of(_ runs: [RunRecord], staleBefore: UTCInstant) -> SlotState {
    if let done = runs.last(where: { $0.status == .succeeded }) {
      return .succeeded(runID: done.id, finishedAt: done.finishedAt)
    }
    for run in runs.reversed() where run.status == .skipped {
      if let by = run.supersededBy { return .superseded(by: by) }
      if PipelineLedger.Counts.decode(run.counts)?.skipReason == .paused { return .paused(runID: run.id) }
    }
    if let live = runs.last(where: {
      $0.status == .running && ($0.heartbeatAt ?? $0.startedAt) >= staleBefore
    }) {
      return .running(runID: live.id)
    }
    guard let last = runs.last else { return .missing }
    if last.status == .failed { return .failed(runID: last.id, error: last.error) }
    return .incomplete(runID: last.id, status: last.status == .running ? .abandoned : last.status)
  }

  /// Loads the state of every slot in `fires` with one ledger query. With `shard` (`K/N` or
  /// `all`), of that shard's runs only: what a shard worker owes. Without, of the pipeline as a
  /// whole: a slot run in N shards is done when every shard's run is (`combined`).
  static func load(
    _ fires: [FireTime], pipeline: PipelineName, storage: Storage, staleBefore: UTCInstant,
    shard: RunShard? = nil
  ) throws -> [UTCInstant: SlotState] {
    guard let first = fires.first, let last = fires.last else { return [:] }
    let runs = try storage.read {
      try $0.runtime.pipelineSlotRuns(pipeline, fromSlot: first.slot, throughSlot: last.slot)
    }
    var bySlot: [UTCInstant: [RunRecord]] = [:]
    for run in runs where shard == nil || run.shard == shard {
      if let slot = run.slot { bySlot[slot, default: []].append(run) }
    }
    var states: [UTCInstant: SlotState] = [:]
    for fire in fires {
      let slotRuns = bySlot[fire.slot] ?? []
      states[fire.slot] =
        shard == nil ? combined(slotRuns, staleBefore: staleBefore) : of(slotRuns, staleBefore: staleBefore)
    }
    return states
  }

  /// A slot's state over its shards: unsharded runs as `of`; runs of shards `K/N` are done when
  /// every K of 0..<N is, and otherwise as the first shard that is not (running, failed, …).
  static func combined(_ runs: [RunRecord], staleBefore: UTCInstant) -> SlotState {
    let sharded = runs.filter { $0.shard != .all }
    guard !sharded.isEmpty else { return of(runs, staleBefore: staleBefore) }
    let count = sharded.compactMap(\.shard.count).max() ?? 1
    let byShard = Dictionary(grouping: sharded, by: \.shard)
    let states = (0..<count).map {
      of(byShard[.part(index: $0, count: count)] ?? [], staleBefore: staleBefore)
    }
    if states.allSatisfy(\.isDone) {
      // Succeeded in every shard: when the last shard finished (for deadlines).
      let finishes = states.compactMap { state -> (RunID, UTCInstant?)? in
        if case .succeeded(let id, let finished) = state { (id, finished) } else { nil }
      }
      if finishes.count == states.count,
        let last = finishes.max(by: { ($0.1?.seconds ?? 0) < ($1.1?.seconds ?? 0) })
      {
        return .succeeded(runID: last.0, finishedAt: last.1)
      }
      return states.first { !$0.isSucceeded } ?? states[0]
    }
    return states.first { if case .running = $0 { true } else { false } }
      ?? states.first { if case .failed = $0 { true } else { false } }
      ?? states.first { !$0.isDone } ?? .missing
  }

  var isSucceeded: Bool {
    if case .succeeded = self { true } else { false }
  }
}
