import Dispatch
import Foundation
import Synchronization

/// Turns SIGTERM and SIGINT into a request the batch loop checks between batches, so a stop
/// commits the current batch and its checkpoint instead of tearing it.
public final class StopSignal: Sendable {
  private let requested = Atomic<Bool>(false)
  private let sources = Mutex<[any DispatchSourceSignal]>([])

  public init() {}

  public var isRequested: Bool { requested.load(ordering: .acquiring) }

  public func request() { requested.store(true, ordering: .releasing) }

  /// Routes SIGTERM and SIGINT to `request()`. A second signal stops the process at once.
  public func trapTerminationSignals() {
    sources.withLock { sources in
      guard sources.isEmpty else { return }
      for signalNumber in [SIGTERM, SIGINT] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { [self] in
          if isRequested { exit(130) }
          request()
          FileHandle.standardError.write(
            Data("rinjobs: stop requested; finishing the current batch (signal again to stop now)\n".utf8))
        }
        source.resume()
        sources.append(source)
      }
    }
  }
}
