import RinDomain

/// What to seed. The same `users`, `seed` and `now` always give byte-identical table contents.
public struct SeedOptions: Sendable {
  public var users: Int
  public var seed: UInt64
  /// The instant the data is relative to: recent clicks, upcoming birthdays and new accounts
  /// are placed around it.
  public var now: UTCInstant
  /// Users per transaction: bounds memory and lock time, never changes the content.
  public var usersPerTransaction: Int
  /// How contact ids are handed out; the rows are the same either way, renumbered.
  public var contactIDs: ContactIDLayout

  public init(
    users: Int, seed: UInt64 = 1, now: UTCInstant, usersPerTransaction: Int = 100,
    contactIDs: ContactIDLayout = .creationOrder
  ) {
    self.users = users
    self.seed = seed
    self.now = now
    self.usersPerTransaction = usersPerTransaction
    self.contactIDs = contactIDs
  }
}

/// What a seeding wrote.
public struct SeedSummary: Sendable {
  /// Rows per input table of the data contract.
  public var rows: [String: Int]
  public var elapsedSeconds: Double

  public init(rows: [String: Int], elapsedSeconds: Double) {
    self.rows = rows
    self.elapsedSeconds = elapsedSeconds
  }
}
