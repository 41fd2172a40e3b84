import Foundation
import GRDB
import RinDomain
import RinSeed
import RinStorage
import RinTestSupport

/// A seeded SQLite file in its own temporary directory, read back raw through GRDB so the
/// checks do not depend on the storage module's queries.
final class SeedFixture: Sendable {
  /// 2026-09-21T14:13:20Z: an arbitrary fixed instant, so runs are reproducible.
  static let now: Int64 = 1_790_000_000
  static let day: Int64 = 86_400

  let directory: URL
  let path: String
  let storage: Storage
  let summary: SeedSummary?

  init(
    users: Int?, seed: UInt64 = 7, now: Int64 = SeedFixture.now, usersPerTransaction: Int = 100,
    contactIDs: ContactIDLayout = .creationOrder
  ) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("rin-seed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent("rin.sqlite").path
    let storage = try Storage.open(url: path, options: .init(createIfMissing: true))
    self.storage = storage
    summary = try users.map {
      try Seeder.seed(
        into: storage,
        options: SeedOptions(
          users: $0, seed: seed, now: UTCInstant(seconds: now), usersPerTransaction: usersPerTransaction,
          contactIDs: contactIDs))
    }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func int(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? 0 }
  }

  /// Every row of a query, each column as text (nil for NULL).
  func rows(_ sql: String) throws -> [[String?]] {
    try DatabaseQueue(path: path).read { db in
      try Row.fetchAll(db, sql: sql).map { row in
        row.databaseValues.map { $0.isNull ? nil : "\($0.storage.value ?? "")" }
      }
    }
  }

  /// FNV-1a over every row of every data-contract table in stored order, per table.
  func digest() throws -> [String: UInt64] {
    try DatabaseQueue(path: path).read { db in
      var result: [String: UInt64] = [:]
      for table in DataContract.allTables {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let rows = try Row.fetchCursor(db, sql: try TestDatabase.scanInStoredOrder(table, db))
        while let row = try rows.next() {
          for value in row.databaseValues {
            for byte in "\(value)\u{1F}".utf8 {
              hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
          }
          hash = (hash ^ 0x1E) &* 0x100_0000_01b3
        }
        result[table] = hash
      }
      return result
    }
  }
}
