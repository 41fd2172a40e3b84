import Dispatch
import Foundation
import RinDomain
import RinStorage
import Synchronization

/// Turns SIGTERM and SIGINT into a request the batch loop checks between batches, so a stop
/// commits the current batch and its checkpoint instead of tearing it.
public final class StopSignal: Sendable {
  private let requested = Atomic<Bool>(false)
  private let sources = Mutex<[any DispatchSourceSignal]>([])
  /// A run's hard time limit, while one is armed: when it passes, the process stops at once as
  /// on a second signal, recording `reason`. Only in a process that trapped the signals (the
  /// command line), never in a library caller's process.
  private let hardDeadline = Mutex<(at: ContinuousClock.Instant, reason: String)?>(nil)

  public init() {}

  public var isRequested: Bool { requested.load(ordering: .acquiring) }

  public func request() { requested.store(true, ordering: .releasing) }

  /// Routes SIGTERM and SIGINT to `request()`. A second signal stops the process at once: the
  /// batch in progress is rolled back, every run this process still has `running` in `storage`'s
  /// ledger is recorded `interrupted` (given at most `recordingTime`, in case the batch holds
  /// the database), and the process exits 75 like any stopped run.
  public func trapTerminationSignals(
    recordingIn storage: Storage? = nil, environment: RuntimeEnvironment = RuntimeEnvironment(),
    recordingWithin recordingTime: Duration = .seconds(5)
  ) {
    // A signal while the database was opened (EarlyStop) counts as the first.
    if EarlyStop.isRequested { request() }
    sources.withLock { sources in
      guard sources.isEmpty else { return }
      watchHardDeadline(recordingIn: storage, environment: environment, within: recordingTime)
      for signalNumber in [SIGTERM, SIGINT] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { [self] in
          if isRequested {
            Self.stopAtOnce(
              recordingIn: storage, environment: environment, within: recordingTime,
              reason: Self.stoppedAtOnce, skip: .signal,
              announce: "second signal: stopping now; the batch in progress is rolled back")
          }
          request()
          FileHandle.standardError.write(
            Data("rinjobs: stop requested; finishing the current batch (signal again to stop now)\n".utf8))
        }
        source.resume()
        sources.append(source)
      }
    }
  }

  /// Why a run stopped by a second signal ended, as its ledger row says.
  static let stoppedAtOnce =
    "signal: stopped at once by a second signal; the batch in progress was rolled back, and the next run resumes after the last committed batch"

  /// Arms the hard time limit of the run now starting (`RunDeadline.hardStopGrace`): past `at`,
  /// the process stops at once, recording `reason`. Does nothing unless the signals are trapped.
  func holdHardDeadline(at: ContinuousClock.Instant, reason: String) {
    guard sources.withLock({ !$0.isEmpty }) else { return }
    hardDeadline.withLock { $0 = (at, reason) }
  }

  func releaseHardDeadline() { hardDeadline.withLock { $0 = nil } }

  private func watchHardDeadline(
    recordingIn storage: Storage?, environment: RuntimeEnvironment, within recordingTime: Duration
  ) {
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: 0.25)
        guard let deadline = hardDeadline.withLock({ $0 }), ContinuousClock.now >= deadline.at else {
          continue
        }
        Self.stopAtOnce(
          recordingIn: storage, environment: environment, within: recordingTime, reason: deadline.reason,
          skip: .timeout,
          announce: "time limit passed with a batch still running: stopping now; the batch is rolled back")
      }
    }
    thread.name = "rinjobs.deadline"
    thread.start()
  }

  /// Set by the first stop at once: a signal and the time limit arriving together stop once.
  private static let stopping = Mutex(false)

  private static func stopAtOnce(
    recordingIn storage: Storage?, environment: RuntimeEnvironment, within recordingTime: Duration,
    reason: String,
    skip: SkipReason, announce: String
  )
    -> Never
  {
    let first = stopping.withLock { stopping in
      let first = !stopping
      stopping = true
      return first
    }
    // The first one records and exits; a second one waits for that.
    while !first { Thread.sleep(forTimeInterval: 60) }
    let standardError = FileHandle.standardError
    standardError.write(Data("rinjobs: \(announce)\n".utf8))
    if let storage {
      let recorded = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        do {
          try storage.write { tx in
            let ran = try tx.runtime.interruptRuns(
              host: environment.host, pid: environment.pid, at: environment.now, reason: reason)
            for job in Set(ran.compactMap(\.job)) {
              try tx.runtime.countSkip(job: .job(job), reason: skip.rawValue, at: environment.now)
            }
          }
        } catch {
          standardError.write(
            Data(
              "rinjobs: could not record the stop in the run ledger: \(RunFailure.from(error).message)\n".utf8
            ))
        }
        recorded.signal()
      }
      if recorded.wait(timeout: .now() + recordingTime.inSeconds) == .timedOut {
        standardError.write(
          Data(
            "rinjobs: could not record the stop in the run ledger within \(recordingTime.wholeSeconds) s (the database is busy); the next `rinjobs status`, `--scheduled` or `--catch-up` marks the run abandoned\n"
              .utf8))
      }
    }
    exit(RinExitCode.temporary.rawValue)
  }
}
