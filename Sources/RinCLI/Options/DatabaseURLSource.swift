import Foundation
import RinDomain
import RinRuntime

/// Where the database URL comes from when it is not `storage.url`, first found wins: `--db`,
/// the file named by `RIN_DATABASE_URL_FILE` (a mounted Kubernetes Secret), then
/// `RIN_DATABASE_URL`. Only the first puts the URL in the process's arguments, which every user
/// of the host can read (`ps`), so a password there is warned about (docs/OPERATIONS.md
/// "Giving the database URL").
enum DatabaseURLSource {
  static let fileVariable = "RIN_DATABASE_URL_FILE"
  static let variable = "RIN_DATABASE_URL"

  /// The URL given outside pipelines.yaml, or nil to use `storage.url`.
  static func given(db: String?, environment: [String: String]) throws -> String? {
    if let db {
      if SecretMask.holdsSecret(db) {
        FileHandle.standardError.write(Data((warning + "\n").utf8))
      }
      return db
    }
    if let file = environment[fileVariable], !file.isEmpty { return try read(file) }
    if let url = environment[variable], !url.isEmpty { return url }
    return nil
  }

  static let warning =
    "rinjobs: warning: --db holds a password, which other users of this host can read in the process list (ps); give the URL in \(fileVariable) (a file readable by this user only) or \(variable) instead, or keep the password in libpq's PGPASSFILE and leave it out of the URL"

  private static func read(_ path: String) throws -> String {
    try SecretFile.read(
      path, variable: fileVariable, what: "database URL", example: "postgres://user@host/db or a SQLite path")
  }
}
