import Dispatch

/// Runs the stub's tasks on a dispatch queue of its own instead of Swift's shared thread pool,
/// so a test process whose pool threads are busy (blocking file or process waits) still gets
/// its answers on time.
final class DedicatedExecutor: TaskExecutor, Sendable {
  private let queue = DispatchQueue(label: "rin.provider-stub")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
