/// A migration `rinjobs migrate` would apply, as this backend would run it (`migrate --dry-run`).
public struct PendingMigration: Sendable, Equatable {
  public let name: String
  public let statements: [String]
  /// An index on a table the online services write: on a PostgreSQL database in use it is built
  /// `CONCURRENTLY`, outside a transaction, so their writes go on.
  public let isServiceIndex: Bool
}

extension PendingMigration {
  /// A step as SQLite runs it: its own DDL, in one transaction.
  init(_ step: Migrations.Step) {
    self.init(name: step.name, statements: step.statements, isServiceIndex: step.kind != .schema)
  }
}

extension Storage {
  /// The steps not applied yet, in order, without applying any.
  public func pendingMigrations() throws -> [PendingMigration] { try backend.pendingMigrations() }

  /// Whether every stamp index exists: without one, finding a night's changed owners in one pass
  /// (`collectOwnersChanged`) would read a whole table. On PostgreSQL a database in use gets
  /// them from `rinjobs migrate`.
  public var stampIndexesReady: Bool {
    Migrations.stampIndexSteps.isDisjoint(with: backend.pendingServiceIndexes)
  }

  /// Whether `url` names a PostgreSQL database (else a SQLite file path).
  public static func isPostgres(url: String) -> Bool { PostgresURL.matches(url) }

  /// Every step, as a database that does not exist yet would get them (SQLite's DDL).
  public static func migrationsForNewDatabase() -> [PendingMigration] {
    Migrations.steps.map(PendingMigration.init)
  }
}
