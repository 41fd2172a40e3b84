import RinDomain

/// A problem in `pipelines.yaml`, located so editors and terminals can jump to it.
/// Printed as `file:line:column: message`, the form compilers use.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
  public let file: String
  /// 1-based.
  public let line: Int
  /// 1-based, counted in Unicode scalars (as libyaml counts).
  public let column: Int
  public let message: String

  public init(file: String, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    // A message quotes what the file says, which may be a URL with a password in it.
    self.message = SecretMask.masked(message)
  }

  public var description: String { "\(file):\(line):\(column): \(message)" }
}
