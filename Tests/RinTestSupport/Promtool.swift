import Foundation

/// Prometheus's own checker (Debian's `prometheus` package; scripts/setup.sh installs it), run on
/// every metrics file a test makes rin-jobs write: what node_exporter's textfile collector reads
/// must be valid exposition text, with the names and types Prometheus expects.
package enum Promtool {
  package struct Missing: Error, CustomStringConvertible {
    package var description: String {
      "promtool is not installed: scripts/setup.sh installs it (Debian package prometheus)"
    }
  }

  /// `promtool check metrics` on the file at `path`: nil when it passes, else what it says.
  package static func checkMetrics(atPath path: String) throws -> String? {
    guard
      let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { throw Missing() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: promtool)
    process.arguments = ["check", "metrics"]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : "promtool check metrics \(path): \(text)"
  }
}
