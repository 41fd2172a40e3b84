import RinDomain

/// `jobs.<job>.timeout`: the wall-clock time after which a run stops between batches, like a
/// SIGTERM (the batch commits with its checkpoint, the run ends `interrupted` with exit 75, and
/// the next run resumes after it). A run always completes one batch first, so that a limit
/// shorter than one batch still makes progress run after run.
struct RunDeadline: Sendable {
  let job: JobName
  let timeout: Duration
  /// Wall-clock seconds.
  let at: Double
  let clock: @Sendable () -> Double

  var hasPassed: Bool { clock() >= at }

  /// How long past the limit a batch still running may go on (waiting for a provider's turn, a
  /// retry, a lock) before the process stops at once: the batch rolls back, answers the provider
  /// already gave stay cached, and the run ends `interrupted` with exit 75, so the limit holds
  /// within seconds whatever the batch.
  static let hardStopGrace = 10.0

  var hardStopReason: String {
    "timeout: jobs.\(job.rawValue).timeout (\(DurationFormat.format(timeout))) reached and the batch in progress had not ended \(Int(Self.hardStopGrace)) s later; stopped at once: that batch was rolled back (answers already received stay cached) and the next run resumes after the last committed batch"
  }

  func failure(after user: Int64) -> RunFailure {
    RunFailure(
      .interrupted,
      "timeout: jobs.\(job.rawValue).timeout (\(DurationFormat.format(timeout))) reached; stopped after user \(user == Int64.min ? "none" : String(user)); the next run resumes there"
    )
  }
}
