import Foundation
import Synchronization

/// Runs the tasks that prefer it on a thread of its own, outside both Swift's shared thread pool
/// and Dispatch's: what a test case computes or blocks on then leaves the pool to the loopback
/// stubs, which serve there (`OwnThreadTrait`).
package final class DedicatedExecutor: TaskExecutor, Sendable {
  private let queue = Mutex<[UnownedJob]>([])
  private let ready = DispatchSemaphore(value: 0)
  private let stopped = Atomic<Bool>(false)

  package init() {
    let thread = Thread { [self] in runJobs() }
    thread.name = "rin.provider-stub"
    thread.start()
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.append(job) }
    ready.signal()
  }

  /// Ends the thread once the jobs already queued have run (a stopped stub's last tasks).
  package func shutdown() {
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
