import Foundation
import RinStorage

/// Writes a deterministic synthetic database for demos, tests and benchmarks (docs/CONTRACT.md §6).
public enum Seeder {
  /// Seeds `users` users and everything they own into an empty database, committing every
  /// `usersPerTransaction` users so memory stays flat. Output tables are left empty.
  public static func seed(
    into storage: Storage, options: SeedOptions,
    progress: ((_ usersDone: Int, _ usersTotal: Int) -> Void)? = nil
  ) throws -> SeedSummary {
    guard options.users >= 0 else {
      throw SeedError.invalidOptions("users must be 0 or more, got \(options.users)")
    }
    guard options.usersPerTransaction > 0 else {
      throw SeedError.invalidOptions(
        "usersPerTransaction must be positive, got \(options.usersPerTransaction)")
    }
    // Elapsed time is reported, never written: the clock cannot leak into the data.
    let started = ContinuousClock.now
    let existing = try storage.read { try $0.count("users") }
    guard existing == 0 else { throw SeedError.databaseNotEmpty(location: storage.location, users: existing) }
    let ctx = SeedContext(options: options)
    let pipeline = ChunkPipeline(ctx: ctx, usersPerChunk: options.usersPerTransaction)
    // On any exit, normal or a failed write, stop and release the generator thread.
    defer { pipeline.cancel() }
    let inserters = SeedTable.allCases.map(\.inserter)
    while let chunk = pipeline.next() {
      try storage.write { tx in
        try tx.bulkLoad(inserters) { statements in
          for (table, rows) in chunk.tables.enumerated() { try statements[table].insert(rows: rows) }
        }
      }
      pipeline.recycle(chunk)
      progress?(chunk.lastUser, options.users)
    }
    // Generated per user (each user's randomness keyed by its id), then renumbered at once:
    // creation order is only known once every user's contacts exist.
    if options.contactIDs == .creationOrder {
      try storage.write { try $0.renumberContactsInCreationOrder() }
    }
    let rows = try storage.read { tx in
      try Dictionary(uniqueKeysWithValues: DataContract.inputTables.map { ($0, try tx.count($0)) })
    }
    let elapsed = ContinuousClock.now - started
    return SeedSummary(rows: rows, elapsedSeconds: elapsed / .seconds(1))
  }
}
