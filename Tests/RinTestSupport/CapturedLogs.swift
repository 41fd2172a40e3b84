import Foundation
import Logging
import Synchronization

/// A log handler that keeps every message with its metadata, so a test can search what a run
/// logged (for secrets and personal data).
package final class CapturedLogs: Sendable {
  private let lines = Mutex<[String]>([])

  package init() {}

  package var all: [String] { lines.withLock { $0 } }
  package var text: String { all.joined(separator: "\n") }

  package func logger(label: String = "test") -> Logger {
    Logger(label: label) { [self] label in Handler(label: label, sink: self) }
  }

  fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

  private struct Handler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace
    package let label: String
    package let sink: CapturedLogs

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
      let all = metadata.merging(event.metadata ?? [:]) { $1 }
      let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      sink.append("\(event.level) \(label): \(event.message) \(rendered)")
    }
  }
}
