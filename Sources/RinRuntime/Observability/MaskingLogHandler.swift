import Logging
import RinDomain

/// Every log line passes `SecretMask`: a message or a metadata value that quotes a connection
/// string or a URL (a storage error, a ping that failed) keeps its password out of the logs.
struct MaskingLogHandler: LogHandler {
  var inner: any LogHandler

  var metadata: Logger.Metadata {
    get { inner.metadata }
    set { inner.metadata = newValue }
  }

  var logLevel: Logger.Level {
    get { inner.logLevel }
    set { inner.logLevel = newValue }
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { inner[metadataKey: key] }
    set { inner[metadataKey: key] = newValue }
  }

  func log(event: LogEvent) {
    var masked = event
    masked.message = "\(SecretMask.masked(event.message.description))"
    masked.metadata = event.metadata?.mapValues { .string(SecretMask.masked($0.description)) }
    inner.log(event: masked)
  }
}
