import GRDB

/// A migration `rinjobs migrate` would apply, as this backend would run it (`migrate --dry-run`).
public struct PendingMigration: Sendable, Equatable {
  public let name: String
  public let statements: [String]
  /// An index on a table the online services write: on a PostgreSQL database in use it is built
  /// `CONCURRENTLY`, outside a transaction, so their writes go on.
  public let isServiceIndex: Bool
}

extension Storage {
  /// The steps not applied yet, in order, without applying any.
  public func pendingMigrations() throws -> [PendingMigration] {
    guard case .sqlite(let queue) = backend else {
      return try withPostgres { connection in
        var exists = false
        try PostgresExecutor(connection: connection).forEachRow(
          "SELECT to_regclass('rin_migrations') IS NOT NULL", []
        ) { exists = $0.int64(0) == 1 }
        let applied = exists ? try PostgresSchema.appliedSteps(connection, location: location) : []
        return Migrations.steps.filter { !applied.contains($0.name) }.map { step in
          let concurrent = step.kind == .serviceIndex && !applied.isEmpty
          return PendingMigration(
            name: step.name,
            statements: concurrent
              ? PostgresSchema.concurrentStatements(step)
              : Migrations.Step(name: step.name, sql: PostgresSchema.ddl(step.sql)).statements,
            isServiceIndex: step.kind == .serviceIndex)
        }
      }
    }
    let applied = try mapErrors { try queue.inDatabase { try Migrations.migrator.appliedIdentifiers($0) } }
    return Self.pending(Migrations.steps.filter { !applied.contains($0.name) })
  }

  /// Whether `url` names a PostgreSQL database (else a SQLite file path).
  public static func isPostgres(url: String) -> Bool { PostgresURL.matches(url) }

  /// Every step, as a database that does not exist yet would get them (SQLite's DDL).
  public static func migrationsForNewDatabase() -> [PendingMigration] {
    pending(Migrations.steps)
  }

  private static func pending(_ steps: [Migrations.Step]) -> [PendingMigration] {
    steps.map {
      PendingMigration(name: $0.name, statements: $0.statements, isServiceIndex: $0.kind == .serviceIndex)
    }
  }
}
