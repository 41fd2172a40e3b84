extension JobContext {
  /// Counts for work outside the user walk (e.g. a batched delete); they add to the run's totals.
  public func addRead(_ what: some JobCounter, _ count: Int = 1) { tally.counts.addRead(what, count) }

  public func addSkipped(_ reason: some JobCounter, _ count: Int = 1) {
    tally.counts.addSkipped(reason, count)
  }
}
