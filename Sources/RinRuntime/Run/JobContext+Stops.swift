import RinConfiguration

extension JobContext {
  /// For a job that is not a walk over users (batched deletes): between two of its transactions,
  /// ends the run on a stop signal, or on its timeout once a batch committed, as the user walk
  /// does. `done` says what the run did so far, for the message.
  public func stopIfRequested(batchesCommitted: Int, done: @autoclosure () -> String) throws {
    if !stop.isRequested, batchesCommitted > 0, let deadline = input.deadline, deadline.hasPassed {
      tally.stopReason = .timeout
      throw RunFailure(
        .interrupted,
        "timeout: jobs.\(deadline.job.rawValue).timeout (\(DurationFormat.format(deadline.timeout))) reached after \(done()); the next run goes on"
      )
    }
    guard stop.isRequested else { return }
    tally.stopReason = .signal
    throw RunFailure(.interrupted, "stopped by signal after \(done()); the next run goes on")
  }
}
