import CLibPQ
import Foundation

/// One libpq connection used synchronously: the storage seam and the jobs are batch-shaped and
/// synchronous, so a blocking client needs no event loop. Not thread-safe: `Storage` serializes
/// every use. Statements are prepared once per connection and reused by name.
final class PostgresConnection {
  private let handle: OpaquePointer
  /// Statement names by the SQL as the storage module wrote it (`?` placeholders): the `$n` form
  /// is made only when a statement is first prepared, so a statement run again costs one lookup
  /// and no scan of its text (a batch's `IN (…)` lists make texts of several kilobytes).
  private var prepared: [String: String] = [:]

  /// Connects, then runs `settings` (SQL, several statements allowed) in the same first round
  /// trip, bounded by the connect's timeout and stop check like the connect itself.
  init(url: String, connect: PostgresConnect = PostgresConnect(), settings: String = "") throws {
    guard let handle = connect.start(url) else {
      throw PostgresError(sqlState: .unknown, message: "libpq could not allocate a connection")
    }
    self.handle = handle
    // No PQfinish on a throw: every stored property is set, so deinit runs and frees the handle
    // (finishing it here too was a double free: any refused connection crashed the process).
    try connect.finish(handle)
    // Messages of the server's own (notices about implicit indexes, …) are not ours to print.
    let first = "SET client_min_messages = warning;" + settings
    guard PQsendQuery(handle, first) == 1 else {
      throw PostgresError(sqlState: .connectionFailure, message: Self.trimmed(PQerrorMessage(handle)))
    }
    while true {
      try connect.waitForResult(handle)
      guard let result = PQgetResult(handle) else { break }
      try check(result)
    }
  }

  deinit { PQfinish(handle) }

  private var cursorDepth = 0

  /// Inside `BEGIN … COMMIT` (or a failed transaction not yet rolled back).
  var isInsideTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

  /// An error aborted the open transaction: only a rollback is accepted now.
  var isTransactionFailed: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

  /// A cursor name free at this nesting depth (a row callback may open a cursor of its own).
  func openCursorName() -> String {
    cursorDepth += 1
    return "rin_cursor_\(cursorDepth)"
  }

  func closeCursorName() { cursorDepth -= 1 }

  /// Runs SQL without parameters through the simple protocol (several statements allowed).
  @discardableResult
  func simple(_ sql: String) throws -> PostgresResult {
    try check(PQexec(handle, sql))
  }

  /// Runs `sql` (with `?` placeholders) as a prepared statement, preparing it on first use.
  @discardableResult
  func run(_ sql: String, _ arguments: [SQLValue]) throws -> PostgresResult {
    let name = try statementName(sql)
    let texts = arguments.map(Self.text)
    return try withCStrings(texts) { values in
      try check(PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0))
    }
  }

  /// Runs `sql` (with `?` placeholders) as the unnamed statement: planned for these values and
  /// the tables as they are now, never from a cached plan (`SQLExecutor.executeReplanned`).
  @discardableResult
  func runUnprepared(_ sql: String, _ arguments: [SQLValue]) throws -> PostgresResult {
    let texts = arguments.map(Self.text)
    return try withCStrings(texts) { values in
      try check(
        PQexecParams(
          handle, SQLDialect.numberedPlaceholders(sql), Int32(values.count), nil, values, nil, nil, 0))
    }
  }

  private func statementName(_ sql: String) throws -> String {
    if let name = prepared[sql] { return name }
    let name = "rin_\(prepared.count)"
    // The whole statement is numbered here, once, so that `$n` counts every `?` of it however
    // the text was put together (a scope's condition inside a query, a query inside a cursor).
    try check(PQprepare(handle, name, SQLDialect.numberedPlaceholders(sql), 0, nil))
    prepared[sql] = name
    return name
  }

  /// Starts `COPY … FROM STDIN`, sends `data` (COPY text format) and ends it.
  func copy(_ statement: String, data: [UInt8]) throws {
    try check(PQexec(handle, statement), expecting: PGRES_COPY_IN)
    let sent = data.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        PQputCopyData(handle, chars.baseAddress, Int32(chars.count))
      }
    }
    guard sent == 1, PQputCopyEnd(handle, nil) == 1 else {
      throw PostgresError(sqlState: .unknown, message: Self.trimmed(PQerrorMessage(handle)))
    }
    while let result = PQgetResult(handle) {
      _ = try check(result)
    }
  }

  @discardableResult
  private func check(_ result: OpaquePointer?, expecting: ExecStatusType? = nil) throws -> PostgresResult {
    guard let result else {
      throw PostgresError(sqlState: .connectionFailure, message: Self.trimmed(PQerrorMessage(handle)))
    }
    let owned = PostgresResult(result)
    let status = PQresultStatus(result)
    if let expecting, status == expecting { return owned }
    switch status {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return owned
    default:
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { SQLState(String(cString: $0)) }
      let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
      // libpq's own "server closed the connection unexpectedly" carries no code: the
      // connection's state says it is gone.
      let lost = PQstatus(handle) == CONNECTION_BAD ? SQLState.connectionFailure : .unknown
      throw PostgresError(
        sqlState: state ?? lost, message: message ?? Self.trimmed(PQerrorMessage(handle)))
    }
  }

  private static func text(_ value: SQLValue) -> String? {
    switch value {
    case .null: nil
    case .integer(let v): String(v)
    case .real(let v): PostgresText.double(v)
    case .text(let v): v
    }
  }

  /// libpq gives no SQLSTATE for a refused connection, only the server's message: a missing
  /// database (`3D000`) is told by its text (English, the server's default `lc_messages`), so
  /// that it fails as missing instead of as a temporary connection error (exit 75 for ever).
  /// A server that is starting up, shutting down or in recovery refuses with `57P03` and one of
  /// these texts, so that a restart or a failover is told apart from a wrong URL.
  static func connectionFailureState(_ message: String) -> SQLState {
    if message.range(of: #"database "[^"]*" does not exist"#, options: .regularExpression) != nil {
      return .invalidCatalogName
    }
    let notNow = [
      "the database system is starting up", "the database system is shutting down",
      "the database system is in recovery mode", "the database system is not yet accepting connections",
      "the database system is not accepting connections",
    ]
    if notNow.contains(where: message.contains) { return .cannotConnectNow }
    return .sqlclientUnableToEstablishSQLConnection
  }

  static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
    (message.map { String(cString: $0) } ?? "unknown libpq error")
      .trimmingCharacters(in: [" ", "\n"])
  }
}

/// Gives `body` C strings for `texts` (nil stays a null pointer, i.e. SQL NULL).
private func withCStrings<T>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> T) rethrows -> T
{
  var pointers: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
  defer { for pointer in pointers { free(pointer) } }
  return try pointers.withUnsafeMutableBufferPointer { buffer in
    try body(buffer.map { $0.map { UnsafePointer($0) } })
  }
}
