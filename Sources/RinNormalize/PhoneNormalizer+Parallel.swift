import Dispatch
import Foundation

extension PhoneNormalizer {
  /// Parses many numbers on every core, in contiguous slices. libphonenumber is thread-safe and
  /// is most of circle-patterns' time on one core; the results are `parse` one by one.
  public static func parse(
    _ phones: [(raw: String, defaultRegion: String)],
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> [ParsedPhone?] {
    let count = phones.count
    // Small inputs stay on this thread: starting workers would cost more than it saves.
    let workers = max(1, min(threads, count / 256))
    var results = [ParsedPhone?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
      // Each worker writes its own slice only.
      nonisolated(unsafe) let out = buffer
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for i in (count * worker / workers)..<(count * (worker + 1) / workers) {
          out[i] = parse(raw: phones[i].raw, defaultRegion: phones[i].defaultRegion)
        }
      }
    }
    return results
  }
}
