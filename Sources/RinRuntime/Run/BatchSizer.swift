import RinDomain

/// Sizes each batch so that its transaction takes about `target`, from the times of the
/// batches before it, with the job's `batch_size` as the ceiling (the way GitLab's batched
/// background migrations size theirs): short transactions hold the services' rows briefly and
/// no snapshot for long, whatever a user costs on this database. Without a target every batch
/// is the ceiling.
struct BatchSizer: Sendable, Equatable {
  let ceiling: Int
  /// Nil sizes nothing.
  let target: Duration?
  private(set) var size: Int

  /// A batch grows at most this much at once, so that one fast batch of cheap users does not
  /// make the next one of costly users long; it shrinks as much as its time says.
  static let maxGrowth = 2.0
  static let firstBatchCap = 25

  init(ceiling: Int, target: Duration?) {
    self.ceiling = max(1, ceiling)
    self.target = target
    // With a target, the first batch is at most `firstBatchCap` users: short whatever the users
    // cost, and the next ones grow to the target within a few batches. A `batch_size` this
    // small or smaller starts whole, as without a target.
    size = target == nil ? self.ceiling : min(self.ceiling, Self.firstBatchCap)
  }

  /// Learns from a batch of `users` users whose transaction took `time`.
  mutating func record(users: Int, time: Duration) {
    guard let target, users > 0 else { return }
    let perUser = max(time.inSeconds, 1e-6) / Double(users)
    let wanted = target.inSeconds / perUser
    let next = min(wanted, Double(size) * Self.maxGrowth)
    size = min(ceiling, max(1, Int(next.rounded(.down))))
  }

  /// After a batch gave way to a lock: smaller batches hold fewer rows for less time.
  mutating func halve() { size = max(1, size / 2) }
}
