import Foundation
import GRDB

extension StorageError {
  /// Turns a backend error into one an operator can act on, without SQL arguments (which may
  /// hold personal data).
  static func from(_ error: any Error, location: String) -> StorageError {
    if let postgres = error as? PostgresError { return from(postgres, location: location) }
    guard let db = error as? DatabaseError else {
      return StorageError(.sqlFailure, location: location, detail: "\(error)", hint: "")
    }
    let message = db.message ?? "unknown error"
    switch db.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return StorageError(
        .busy, location: location, detail: message,
        hint: "Another process holds the database lock; retry later.")
    case .SQLITE_READONLY:
      return StorageError(
        .readOnly, location: location, detail: message,
        hint: "Give this user write permission on the file and its directory.")
    case .SQLITE_FULL:
      return StorageError(
        .diskFull, location: location, detail: message,
        hint: "Free disk space; the open transaction was rolled back.")
    case .SQLITE_CANTOPEN:
      return StorageError(
        .cannotOpen, location: location, detail: message,
        hint: "Check that the path and its directory exist and are readable.")
    case .SQLITE_NOTADB:
      return StorageError(
        .notADatabase, location: location, detail: message,
        hint: "Point storage.url or --db at a SQLite database file.")
    default:
      return StorageError(
        .sqlFailure, location: location, detail: "\(message) (SQLite code \(db.resultCode.rawValue))",
        hint: "This is a bug or a damaged database; keep the file and report it.")
    }
  }
}

extension StorageError {
  /// SQLite says only "unable to open" when the file exists but its folder cannot be written
  /// (it creates the write-ahead log beside the file): name that cause instead.
  func naming(readOnlyFolderOf path: String, exists: Bool) -> StorageError {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard code == .cannotOpen, exists, !FileManager.default.isWritableFile(atPath: folder) else {
      return self
    }
    return StorageError(
      .readOnly, location: location, detail: "its folder cannot be written (a read-only file system?)",
      hint: "SQLite writes its log beside the database file: make the folder writable.")
  }

  /// PostgreSQL's SQLSTATE classes, as an operator acts on them.
  static func from(_ error: PostgresError, location: String) -> StorageError {
    let detail = error.description
    switch error.sqlState {
    case "40001", "40P01", "55P03", "57014", "53300":
      return StorageError(
        .busy, location: location, detail: detail,
        hint: "Another transaction held what this one needed, or the server is saturated; retry later.")
    case "3D000":
      return StorageError(
        .databaseMissing, location: location, detail: detail,
        hint: "Create the database (createdb), then `rinjobs migrate --db URL`.")
    case "25006", "42501":
      return StorageError(
        .readOnly, location: location, detail: detail,
        hint: "Grant this role write access to the database, or point at the primary.")
    case "53100":
      return StorageError(
        .diskFull, location: location, detail: detail,
        hint: "Free disk space on the server; the open transaction was rolled back.")
    case let state where state.hasPrefix("08") || state.hasPrefix("57P") || state.isEmpty:
      return StorageError(
        .busy, location: location, detail: detail,
        hint: "Check that the server is up and the URL (host, port, user, database) is right; retry later.")
    default:
      return StorageError(
        .sqlFailure, location: location, detail: detail,
        hint: "This is a bug or a damaged database; report it with the message above.")
    }
  }
}
