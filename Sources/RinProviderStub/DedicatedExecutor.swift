import Foundation
import Synchronization

/// Runs the stub's tasks on a thread of its own, outside both Swift's shared thread pool and
/// Dispatch's: a test process whose pool threads are busy (blocking waits for files and
/// processes) still gets its answers on time. Public so that a test whose timing matters (a
/// client's timeout racing a stub's answer) can run on a thread of its own the same way.
public final class DedicatedExecutor: TaskExecutor, Sendable {
  private let queue = Mutex<[UnownedJob]>([])
  private let ready = DispatchSemaphore(value: 0)
  private let stopped = Atomic<Bool>(false)

  public init() {
    let thread = Thread { [self] in runJobs() }
    thread.name = "rin.provider-stub"
    thread.start()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.append(job) }
    ready.signal()
  }

  /// Ends the thread once the jobs already queued have run (a stopped stub's last tasks).
  public func shutdown() {
    stopped.store(true, ordering: .releasing)
    ready.signal()
  }

  private func runJobs() {
    while true {
      ready.wait()
      guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
        if stopped.load(ordering: .acquiring) { return }
        continue
      }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
