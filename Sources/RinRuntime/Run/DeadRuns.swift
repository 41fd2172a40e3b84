import Logging
import RinDomain
import RinStorage

/// A run whose process died on this host (`kill -9`, a crash, a host that rebooted) leaves its
/// ledger row `running`. Its lease is taken over at once by the next run of the same job, and
/// this does the same for the row itself: `status`, `--scheduled` and `--catch-up` call it first,
/// so a dead run is never mistaken for a live one, and its slot is owed again at once.
public enum DeadRuns {
  /// Marks `abandoned` every `running` row of this host whose process no longer exists; returns
  /// their ids. A failure is logged and changes nothing: the rows then go stale with time.
  @discardableResult
  public static func abandon(storage: Storage, environment: RuntimeEnvironment, logger: Logger) -> [RunID] {
    guard !storage.isDryRun else { return [] }
    do {
      let dead = try storage.read { try $0.runtime.runningRuns(host: environment.host) }
        .filter { $0.pid != environment.pid && !RuntimeEnvironment.processExists($0.pid) }
      guard !dead.isEmpty else { return [] }
      let now = environment.now
      try storage.write { tx in
        for run in dead {
          try tx.runtime.abandonRun(
            id: run.id, at: now,
            reason:
              "its process \(run.pid) no longer exists on this host (\(run.host)); it stopped without recording its end"
          )
        }
      }
      for run in dead {
        logger.warning(
          "run \(run.id) (\(run.job), pid \(run.pid)) was still marked running though its process is gone from this host; marked abandoned",
          metadata: ["run": "\(run.id)"])
      }
      return dead.map(\.id)
    } catch {
      logger.warning("could not look for runs whose process is gone: \(RunFailure.from(error).message)")
      return []
    }
  }
}
