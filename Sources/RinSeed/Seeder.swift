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
    try write(ctx, IDCounters(), into: storage, options: options, progress: progress)
    // Generated per user (each user's randomness keyed by its id), then renumbered at once:
    // creation order is only known once every user's contacts exist.
    if options.contactIDs == .creationOrder {
      try storage.write { try $0.renumberContactsInCreationOrder() }
    }
    return try summary(storage, since: started)
  }

  /// Appends `options.users` sign-ups to a seeded database: users with the ids after the
  /// largest, each with everything the seeder gives a user (a full address book, circles,
  /// home items, reminders, invites, state), created within the 8 hours before `options.now`
  /// and live. Every other row gets an id after its table's largest, so contacts come in
  /// creation order whatever `contactIDs` says. `options.seed` must be the seed the database
  /// was seeded with: a sign-up's book then holds existing users' real numbers, and its
  /// inviter's real codes. The same database and options give the same rows.
  public static func addSignUps(
    into storage: Storage, options: SeedOptions,
    progress: ((_ usersDone: Int, _ usersTotal: Int) -> Void)? = nil
  ) throws -> SeedSummary {
    guard options.users > 0 else {
      throw SeedError.invalidOptions("sign-ups must be 1 or more, got \(options.users)")
    }
    guard options.usersPerTransaction > 0 else {
      throw SeedError.invalidOptions(
        "usersPerTransaction must be positive, got \(options.usersPerTransaction)")
    }
    let started = ContinuousClock.now
    let (lastUser, ids) = try storage.read { tx in
      let ids = IDCounters(
        contact: try tx.maxID("contacts"), circle: try tx.maxID("circles"),
        mergeSuggestion: try tx.maxID("merge_suggestions"), syncConflict: try tx.maxID("sync_conflicts"),
        accessRequest: try tx.maxID("access_requests"), securityItem: try tx.maxID("security_items"),
        reminder: try tx.maxID("reminders"), inviteShare: try tx.maxID("invite_shares"),
        inviteClick: try tx.maxID("invite_clicks"))
      return (try tx.maxID("users"), ids)
    }
    guard lastUser > 0 else {
      throw SeedError.invalidOptions("sign-ups go into a seeded database; \(storage.location) has no users")
    }
    let ctx = SeedContext(options: options, firstUser: Int(lastUser) + 1, signUps: true)
    try write(ctx, ids, into: storage, options: options, progress: progress)
    return try summary(storage, since: started)
  }

  private static func write(
    _ ctx: SeedContext, _ ids: IDCounters, into storage: Storage, options: SeedOptions,
    progress: ((_ usersDone: Int, _ usersTotal: Int) -> Void)?
  ) throws {
    let pipeline = ChunkPipeline(ctx: ctx, usersPerChunk: options.usersPerTransaction, ids: ids)
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
      progress?(chunk.lastUser - ctx.firstUser + 1, options.users)
    }
  }

  private static func summary(_ storage: Storage, since started: ContinuousClock.Instant) throws
    -> SeedSummary
  {
    let rows = try storage.read { tx in
      try Dictionary(uniqueKeysWithValues: DataContract.inputTables.map { ($0, try tx.count($0)) })
    }
    let elapsed = ContinuousClock.now - started
    return SeedSummary(rows: rows, elapsedSeconds: elapsed / .seconds(1))
  }
}
