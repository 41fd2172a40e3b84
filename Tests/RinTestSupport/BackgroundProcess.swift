import Foundation
import Synchronization

/// One of the package's executables running beside the test (a server, a job to kill), its
/// output collected as it comes.
package final class BackgroundProcess: Sendable {
  private let process: Process
  private let output = OutputBuffer()

  package convenience init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws
  {
    try self.init(
      executable: Executable.buildFolder.appendingPathComponent(name), arguments, environment: environment)
  }

  /// Any program, by its path: a server from Debian's packages (the Pushgateway).
  package init(executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    self.process = process
    try process.run()
    // Read on a thread of its own, with blocking reads until end of file, not through a
    // `readabilityHandler`: its dispatch source, cancelled asynchronously while the pipe's
    // descriptor is closed, crashed libdispatch's event loop now and then (SIGSEGV in
    // `_dispatch_event_loop_drain`, last seen in a loaded CI run stopping a provider stub).
    let reading = pipe.fileHandleForReading
    Thread.detachNewThread { [output] in
      while true {
        let data = reading.availableData
        guard !data.isEmpty else { break }
        output.append(String(decoding: data, as: UTF8.self))
      }
      output.end()
    }
  }

  package var text: String { output.text }

  package var pid: Int32 { process.processIdentifier }

  /// Sends `signal` without waiting for the process to end.
  package func send(_ signal: Int32) {
    if process.isRunning { kill(process.processIdentifier, signal) }
  }

  /// Waits until the output matches `pattern` (a regular expression) and returns the first
  /// capture group; nil after `timeout` seconds or if the process ended.
  package func waitForOutput(matching pattern: String, timeout: Double = 60) async throws -> String? {
    let regex = try NSRegularExpression(pattern: pattern)
    let deadline = Date().addingTimeInterval(timeout)
    // The output is checked before the clock: a test starved of threads by others still sees
    // a line that came in time.
    while true {
      let text = self.text
      if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
        let range = Range(match.range(at: match.numberOfRanges > 1 ? 1 : 0), in: text)
      {
        return String(text[range])
      }
      guard process.isRunning, Date() < deadline else { return nil }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
  }

  /// Waits for the process to end by itself without holding a thread (a server in this test
  /// process must keep answering it); its exit status, or nil after `timeout` seconds.
  package func exitStatus(timeout: Double = 120) async throws -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      guard Date() < deadline else { return nil }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    process.waitUntilExit()
    // The process may end before the handler has read its last output (under load, a job's
    // `--json` summary was missing from `text`): wait for the end of its output too.
    let drained = Date().addingTimeInterval(10)
    while !output.hasEnded && Date() < drained { try await Task.sleep(nanoseconds: 5_000_000) }
    return process.terminationStatus
  }

  /// Sends `signal` and waits for the process to end; returns its exit status. A process still
  /// running 10 s later is killed, so a test never hangs on a child that ignores `signal`.
  @discardableResult
  package func stop(signal: Int32 = SIGTERM) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let drained = Date().addingTimeInterval(10)
    while !output.hasEnded && Date() < drained { usleep(5_000) }
    return process.terminationStatus
  }

  deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

private final class OutputBuffer: Sendable {
  private let buffer = Mutex((text: "", ended: false))
  package var text: String { buffer.withLock { $0.text } }
  /// The pipe reached end of file: every byte the process wrote is in `text`.
  package var hasEnded: Bool { buffer.withLock { $0.ended } }
  package func append(_ text: String) { buffer.withLock { $0.text += text } }
  package func end() { buffer.withLock { $0.ended = true } }
}
