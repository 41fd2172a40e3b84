import ArgumentParser

/// `--wait`: how long a run of a job or a pipeline waits for another run's lease.
struct LeaseWaitOptions: ParsableArguments {
  @Option(parsing: .unconditional, help: "Wait up to SECONDS for another run's lease instead of exiting 75.")
  var wait: Double = 0

  init() {}

  /// `--wait` as the runners take it.
  var duration: Duration { .seconds(wait) }

  func validate() throws {
    guard wait >= 0, wait.isFinite else {
      throw ValidationError("--wait \(wait): expected 0 or more seconds")
    }
  }
}
