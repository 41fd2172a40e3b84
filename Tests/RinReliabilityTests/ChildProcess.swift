import Foundation
import RinTestSupport

/// A built executable running as a child process, whose stderr the test reads line by line
/// so that it can signal the child at a chosen point of its run.
final class ChildProcess {
  let process = Process()
  private let stderrPipe = Pipe()
  private let stdoutPath: String
  private var pending = Data()
  private(set) var stderrLines: [String] = []
  private(set) var sawEndOfStderr = false

  /// stdout goes to a file, so that a child never blocks on a pipe nobody reads.
  init(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], stdoutPath: String
  ) throws {
    self.stdoutPath = stdoutPath
    process.executableURL = Executable.buildFolder.appendingPathComponent(name)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { $1 }
    process.environment = env
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
    process.standardError = stderrPipe
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }

  /// Reads stderr until `count` lines containing `marker` have been seen in all; false when
  /// the child closed stderr (ended) first.
  func waitForLines(containing marker: String, count: Int) -> Bool {
    while stderrLines.filter({ $0.contains(marker) }).count < count {
      guard readMore() else { return false }
    }
    return true
  }

  func signal(_ number: Int32) { kill(pid, number) }

  /// Waits for the end; the exit code, or 128 + the signal that ended it.
  func finish() -> Executable.Result {
    while readMore() {}
    process.waitUntilExit()
    let stdout = FileManager.default.contents(atPath: stdoutPath) ?? Data()
    let code =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return Executable.Result(
      exitCode: code, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: stderrLines.joined(separator: "\n"))
  }

  private func readMore() -> Bool {
    guard !sawEndOfStderr else { return false }
    let chunk = stderrPipe.fileHandleForReading.availableData
    if chunk.isEmpty {
      sawEndOfStderr = true
      if !pending.isEmpty { stderrLines.append(String(decoding: pending, as: UTF8.self)) }
      return false
    }
    pending.append(chunk)
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
      stderrLines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
      pending = Data(pending[pending.index(after: newline)...])
    }
    return true
  }
}
