import Foundation
import Synchronization

/// Runs one of the package's built executables as a real process.
package struct Executable {
  package struct Result {
    package var exitCode: Int32
    package var stdout: String
    package var stderr: String

    package init(exitCode: Int32, stdout: String, stderr: String) {
      self.exitCode = exitCode
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// The folder holding the test bundle also holds the package's executables.
  package static var buildFolder: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// Runs the executable to its end on a thread of its own: waiting for a child must not hold
  /// one of the cooperative pool's two threads, which every other test's async work needs
  /// (the in-process provider stubs answer on it).
  package static func run(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
  ) async throws -> Result {
    try await offPool { try runBlocking(name, arguments, environment: environment, in: directory) }
  }

  /// `run`, holding the calling thread until the child ends: for code that already runs on a
  /// thread of its own (the reliability tests' bodies).
  package static func runBlocking(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = buildFolder.appendingPathComponent(name)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { $1 }
    process.environment = env
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // stderr is drained on a thread of its own: read one after the other, a child that fills
    // the stderr pipe while stdout is still open would wait for us forever.
    let stderrData = Mutex(Data())
    let stderrDrained = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let data = err.fileHandleForReading.readDataToEndOfFile()
      stderrData.withLock { $0 = data }
      stderrDrained.signal()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    stderrDrained.wait()
    let stderr = stderrData.withLock { $0 }
    process.waitUntilExit()
    return Result(
      exitCode: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// The repository's root, for its committed files (pipelines.yaml).
  package static var repositoryRoot: URL {
    // Tests/RinTestSupport/Executable.swift
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }
}

extension Executable {
  /// Starts a built executable without waiting for it; its output goes to the files
  /// `directory/tag.out` and `directory/tag.err`; `environment` is added to this process's.
  package static func start(
    _ name: String, _ arguments: [String], environment: [String: String] = [:],
    outputIn directory: TemporaryDirectory, tag: String
  )
    throws -> Process
  {
    let process = Process()
    process.executableURL = buildFolder.appendingPathComponent(name)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    for (suffix, keyPath) in [("out", \Process.standardOutput), ("err", \Process.standardError)] {
      let path = directory.path("\(tag).\(suffix)")
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      process[keyPath: keyPath] = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }
    try process.run()
    return process
  }
}
