import RinConfiguration
import RinDomain

/// `jobs.<job>.timeout`: the time after which a run stops between batches, like a SIGTERM (the
/// batch commits with its checkpoint, the run ends `interrupted` with exit 75, and the next run
/// resumes after it). A run always completes one batch first, so that a limit shorter than one
/// batch still makes progress run after run.
struct RunDeadline: Sendable {
  let job: JobName
  let timeout: Duration
  /// On the monotonic clock: `timeout` after the run started.
  let at: ContinuousClock.Instant

  var hasPassed: Bool { ContinuousClock.now >= at }

  /// How long past the limit a batch still running may go on (waiting for a provider's turn, a
  /// retry, a lock) before the process stops at once: the batch rolls back, answers the provider
  /// already gave stay cached, and the run ends `interrupted` with exit 75, so the limit holds
  /// within seconds whatever the batch.
  static let hardStopGrace: Duration = .seconds(10)

  var hardStopReason: String {
    "timeout: jobs.\(job.rawValue).timeout (\(DurationFormat.format(timeout))) reached and the batch in progress had not ended \(Self.hardStopGrace.wholeSeconds) s later; stopped at once: that batch was rolled back (answers already received stay cached) and the next run resumes after the last committed batch"
  }

  /// - Parameter user: the last user committed; nil before the first.
  func failure(after user: UserID?) -> RunFailure {
    RunFailure(
      .interrupted,
      "timeout: jobs.\(job.rawValue).timeout (\(DurationFormat.format(timeout))) reached; stopped after user \(LastUser.text(user)); the next run resumes there"
    )
  }
}

/// The last user a walk committed, as messages name it: its id, or `none` before the first.
enum LastUser {
  static func text(_ user: UserID?) -> String { user.map(String.init) ?? "none" }
}
