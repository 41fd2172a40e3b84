import Foundation
import GRDB

extension StorageError {
  /// Turns a SQLite error into one an operator can act on, without SQL arguments (which may
  /// hold personal data).
  static func from(_ db: DatabaseError, location: String) -> StorageError {
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
}
