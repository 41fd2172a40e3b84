import RinDomain

/// A storage failure a reader can act on: what went wrong, where, and what to do.
public struct StorageError: Error, CustomStringConvertible, Sendable {
  /// Extensible: new codes can be added without breaking callers that switch on `isTemporary`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// Whether a later run may succeed without anyone changing anything (exit 75 rather than 1).
    public let isTemporary: Bool
    /// Whether an operator must change the set-up first (exit 78): the schema, a role's grants.
    public let needsOperator: Bool
    public var description: String { name }

    public init(name: String, isTemporary: Bool, needsOperator: Bool = false) {
      self.name = name
      self.isTemporary = isTemporary
      self.needsOperator = needsOperator
    }

    public static let databaseMissing = Code(name: "database missing", isTemporary: false)
    public static let cannotOpen = Code(name: "cannot open database", isTemporary: false)
    public static let notADatabase = Code(name: "not a database", isTemporary: false)
    public static let busy = Code(name: "database busy", isTemporary: true)
    /// The session ended under the job: the server restarted, failed over, or an operator
    /// ended it (`pg_terminate_backend`), or the network dropped it.
    public static let connectionLost = Code(name: "database connection lost", isTemporary: true)
    /// The server refuses connections for now: starting up, shutting down, or in recovery.
    public static let restarting = Code(name: "database is restarting or in recovery", isTemporary: true)
    /// A lock held by someone else (a service) outlasted `lock_timeout`: the job gave way.
    public static let lockTimeout = Code(name: "lock wait timed out", isTemporary: true)
    /// A statement outlasted `statement_timeout` (or was cancelled): the job gave way.
    public static let statementTimeout = Code(name: "statement timed out", isTemporary: true)
    public static let readOnly = Code(name: "database read-only", isTemporary: false)
    public static let diskFull = Code(name: "disk full", isTemporary: true)
    public static let schemaTooNew = Code(name: "schema newer than this binary", isTemporary: false)
    /// PostgreSQL: a migration `rinjobs migrate` has not applied yet; jobs never apply one.
    public static let schemaBehind = Code(
      name: "schema not migrated", isTemporary: false, needsOperator: true)
    /// The role lacks a grant the statement needs (SQLSTATE 42501).
    public static let permissionDenied = Code(
      name: "permission denied", isTemporary: false, needsOperator: true)
    public static let unsupportedURL = Code(name: "unsupported storage URL", isTemporary: false)
    public static let sqlFailure = Code(name: "SQL failure", isTemporary: false)
    /// A table of ours holds a NULL or a value of the wrong type where its row type needs one.
    public static let malformedRow = Code(name: "malformed row", isTemporary: false)
  }

  public let code: Code
  /// The server's SQLSTATE, when the error came from PostgreSQL with one.
  public var sqlState: String?
  public let location: String
  public let detail: String
  public let hint: String

  public init(_ code: Code, location: String, detail: String, hint: String) {
    self.code = code
    // A location or a server's message may quote a connection string (SecretMask).
    self.location = SecretMask.masked(location)
    self.detail = SecretMask.masked(detail)
    self.hint = SecretMask.masked(hint)
  }

  public var description: String { "\(location): \(code): \(detail). \(hint)" }

  /// Another transaction (a service's) held what this one needed, or the server cancelled the
  /// statement: the same batch may well pass a moment later, so a job gives way and retries it.
  public var isContention: Bool {
    code == .busy || code == .lockTimeout || code == .statementTimeout
  }
}
