import CLibPQ
import Foundation
import GRDB
import GRDBSQLite

/// A plain libpq connection for the tests' own checks on PostgreSQL, independent of the
/// storage module under test. `?` placeholders as in the SQLite checks.
package final class TestPostgresConnection {
  private let handle: OpaquePointer

  package init(url: String) throws {
    guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
      throw PostgresClusterError(message: "cannot connect to \(url)")
    }
    self.handle = handle
    _ = try? execute("SET client_min_messages = warning")
  }

  deinit { PQfinish(handle) }

  /// Runs one statement; returns its rows with values typed as SQLite would hold them.
  /// A connection the server ended (a test that restarts it) connects again, once, and the
  /// statement runs on the new session.
  @discardableResult
  package func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
    do {
      return try executeOnce(sql, arguments)
    } catch  where PQstatus(handle) == CONNECTION_BAD {
      PQreset(handle)
      return try executeOnce(sql, arguments)
    }
  }

  private func executeOnce(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
    let texts: [String?] = arguments.map { value in
      switch value.storage {
      case .null: nil
      case .int64(let v): String(v)
      case .double(let v): v.description
      case .string(let v): v
      case .blob(let v): String(decoding: v, as: UTF8.self)
      }
    }
    if arguments.isEmpty {
      // The simple protocol: a script of several statements, as the SQLite checks write them.
      guard let result = PQexec(handle, sql) else {
        throw PostgresClusterError(message: "no result for \(sql)")
      }
      return try rows(result, sql)
    }
    var pointers = texts.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in pointers { free(pointer) } }
    let result = pointers.withUnsafeMutableBufferPointer { buffer in
      let values = buffer.map { $0.map { UnsafePointer($0) } }
      return PQexecParams(handle, Self.numbered(sql), Int32(values.count), nil, values, nil, nil, 0)
    }
    guard let result else { throw PostgresClusterError(message: "no result for \(sql)") }
    return try rows(result, sql)
  }

  private func rows(_ result: OpaquePointer, _ sql: String) throws -> [[DatabaseValue]] {
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      throw PostgresClusterError(message: "\(String(cString: PQresultErrorMessage(result))) in \(sql)")
    }
    return (0..<PQntuples(result)).map { row in
      (0..<PQnfields(result)).map { column in Self.value(result, row, column) }
    }
  }

  private static func value(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> DatabaseValue {
    guard PQgetisnull(result, row, column) == 0, let bytes = PQgetvalue(result, row, column) else {
      return .null
    }
    switch StoredAs(PQftype(result, column)) {
    case .boolean: return (bytes.pointee == StoredAs.trueText ? 1 : 0).databaseValue
    case .integer: return StoredAs.integer(bytes).databaseValue
    case .real: return StoredAs.real(bytes).databaseValue
    case .text: return String(cString: bytes).databaseValue
    }
  }

  /// How SQLite holds a PostgreSQL column's text: the one mapping `execute` and `copyRows` share.
  private enum StoredAs {
    case boolean, integer, real, text

    init(_ type: Oid) {
      switch type {
      case 16: self = .boolean
      case 20, 21, 23: self = .integer
      case 700, 701, 1700: self = .real
      default: self = .text
      }
    }

    static let trueText = CChar(UInt8(ascii: "t"))
    static func integer(_ bytes: UnsafePointer<CChar>) -> Int64 { Int64(String(cString: bytes)) ?? 0 }
    static func real(_ bytes: UnsafePointer<CChar>) -> Double { Double(String(cString: bytes)) ?? 0 }
  }

  /// Inserts the rows `sql` returns into `table` of `db`, each value typed as `execute` types
  /// it but bound straight from libpq's result: a snapshot copies whole tables, and building
  /// every value first and binding it through GRDB (a dependency, unoptimized in the test
  /// build) was a fifth of a PostgreSQL test's CPU. A query that returns no row inserts nothing.
  package func copyRows(_ sql: String, into table: String, of db: Database) throws {
    guard let result = PQexec(handle, sql) else {
      throw PostgresClusterError(message: "no result for \(sql)")
    }
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_TUPLES_OK else {
      throw PostgresClusterError(message: "\(String(cString: PQresultErrorMessage(result))) in \(sql)")
    }
    let width = PQnfields(result)
    guard PQntuples(result) > 0 else { return }
    let insert = try db.makeStatement(
      sql: "INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: Int(width)).joined(separator: ", ")))"
    )
    let statement = insert.sqliteStatement
    let types = (0..<width).map { PQftype(result, $0) }
    for row in 0..<PQntuples(result) {
      for column in 0..<width {
        let code = Self.bind(result, row, column, as: types[Int(column)], to: statement, at: column + 1)
        guard code == SQLITE_OK else { throw Self.sqliteError(code, statement, table) }
      }
      let step = sqlite3_step(statement)
      sqlite3_reset(statement)
      guard step == SQLITE_DONE else { throw Self.sqliteError(step, statement, table) }
    }
  }

  private static func bind(
    _ result: OpaquePointer, _ row: Int32, _ column: Int32, as type: Oid, to statement: OpaquePointer,
    at index: Int32
  ) -> Int32 {
    guard PQgetisnull(result, row, column) == 0, let bytes = PQgetvalue(result, row, column) else {
      return sqlite3_bind_null(statement, index)
    }
    switch StoredAs(type) {
    case .boolean: return sqlite3_bind_int64(statement, index, bytes.pointee == StoredAs.trueText ? 1 : 0)
    case .integer: return sqlite3_bind_int64(statement, index, StoredAs.integer(bytes))
    case .real: return sqlite3_bind_double(statement, index, StoredAs.real(bytes))
    case .text:
      // SQLITE_TRANSIENT: SQLite copies the bytes before the result is cleared.
      let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
      return sqlite3_bind_text(statement, index, bytes, PQgetlength(result, row, column), transient)
    }
  }

  private static func sqliteError(_ code: Int32, _ statement: OpaquePointer, _ table: String)
    -> PostgresClusterError
  {
    PostgresClusterError(
      message:
        "copying \(table) into the snapshot: SQLite error \(code): \(String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))))"
    )
  }

  private static func numbered(_ sql: String) -> String {
    var out = ""
    var number = 0
    var quoted = false
    for c in sql {
      if c == "'" { quoted.toggle() }
      if c == "?" && !quoted {
        number += 1
        out += "$\(number)"
      } else {
        out.append(c)
      }
    }
    return out
  }
}
