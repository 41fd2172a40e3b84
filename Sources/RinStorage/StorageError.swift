/// A storage failure a reader can act on: what went wrong, where, and what to do.
public struct StorageError: Error, CustomStringConvertible, Sendable {
  /// Extensible: new codes can be added without breaking callers that switch on `isTemporary`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// Whether a later run may succeed without anyone changing anything (exit 75 rather than 1).
    public let isTemporary: Bool
    public var description: String { name }

    public static let databaseMissing = Code(name: "database missing", isTemporary: false)
    public static let cannotOpen = Code(name: "cannot open database", isTemporary: false)
    public static let notADatabase = Code(name: "not a database", isTemporary: false)
    public static let busy = Code(name: "database busy", isTemporary: true)
    public static let readOnly = Code(name: "database read-only", isTemporary: false)
    public static let diskFull = Code(name: "disk full", isTemporary: true)
    public static let schemaTooNew = Code(name: "schema newer than this binary", isTemporary: false)
    public static let unsupportedURL = Code(name: "unsupported storage URL", isTemporary: false)
    public static let sqlFailure = Code(name: "SQL failure", isTemporary: false)
  }

  public let code: Code
  public let location: String
  public let detail: String
  public let hint: String

  public init(_ code: Code, location: String, detail: String, hint: String) {
    self.code = code
    self.location = location
    self.detail = detail
    self.hint = hint
  }

  public var description: String { "\(location): \(code): \(detail). \(hint)" }
}
