import Foundation

/// Debian's `sqlite3` shell on the demo database: how the demo plays Rin's online services, whose
/// writes are not the jobs'. Through the shell because no module but RinStorage may run SQL, and
/// RinStorage runs only the jobs' own statements.
enum DemoShell {
  /// Why the shell failed, said for the demo's day line.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `sql` on `database`; what the shell printed.
  static func run(_ sql: String, on database: String) throws(Failure) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-bail", database]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      throw Failure(description: "sqlite3 could not start (\(error)); install it (scripts/setup.sh)")
    }
    // Waits up to 10 s for the jobs' write lock rather than failing on it.
    input.fileHandleForWriting.write(Data((".timeout 10000\n" + sql).utf8))
    try? input.fileHandleForWriting.close()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "sqlite3 exited \(process.terminationStatus): \(said)")
    }
    return said
  }
}
