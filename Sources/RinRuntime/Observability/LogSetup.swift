import Foundation
import Logging
import RinDomain

/// Logs go to stderr: human text on a terminal, JSON lines otherwise (cron mail, journald,
/// log shippers). `RIN_LOG_LEVEL` sets the level (default info).
public enum LogSetup {
  public static func bootstrap() {
    let level =
      ProcessInfo.processInfo.environment["RIN_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    let terminal = Terminal.stderrIsTerminal
    LoggingSystem.bootstrap { label in
      var handler: any LogHandler =
        terminal ? StreamLogHandler.standardError(label: label) : JSONLinesLogHandler(label: label)
      handler.logLevel = level
      return MaskingLogHandler(inner: handler)
    }
  }
}

/// One JSON object per line on stderr: `ts`, `level`, `label`, `msg`, and the metadata.
public struct JSONLinesLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level = .info
  let label: String

  public init(label: String) {
    self.label = label
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var object: [String: String] = [
      "ts": UTCInstant.now.description,
      "level": event.level.rawValue,
      "label": label,
      "msg": event.message.description,
    ]
    for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
      object[key] = value.description
    }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return }
    FileHandle.standardError.write(data + Data("\n".utf8))
  }
}
