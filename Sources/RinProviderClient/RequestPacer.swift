/// Keeps the request rate within `requests_per_minute` across every concurrent task: request
/// starts are spaced at least 60/rpm seconds apart (so any 60-second window holds at most rpm of
/// them), and a 429's wait holds back every request, not only the one that got it.
actor RequestPacer {
  private let interval: Duration
  private let clock = ContinuousClock()
  private var nextSlot: ContinuousClock.Instant

  init(requestsPerMinute: Int) {
    interval = .nanoseconds(Int64(60_000_000_000 / Double(max(requestsPerMinute, 1))))
    nextSlot = clock.now
  }

  /// Waits for this request's turn. Throws `CancellationError` when the task is cancelled.
  ///
  /// A turn is claimed only once its time has come, and the next one counts from the moment
  /// of the claim: a process that was descheduled while requests waited cannot release them
  /// in a burst afterwards (several waiters woken together claim one at a time).
  func acquire() async throws {
    while true {
      let now = clock.now
      if now >= nextSlot {
        nextSlot = now + interval
        return
      }
      try await Task.sleep(until: nextSlot, clock: clock)
    }
  }

  /// No request starts within `wait`.
  func holdAll(for wait: Duration) {
    nextSlot = max(nextSlot, clock.now + wait)
  }
}
