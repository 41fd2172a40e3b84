/// Why a duration string was rejected; the message is written for the person who typed it.
public struct DurationFormatError: Error, Sendable, Hashable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
