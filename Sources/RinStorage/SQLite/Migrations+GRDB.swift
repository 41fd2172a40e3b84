import GRDB

extension Migrations {
  /// The steps as GRDB's migrator applies them to a SQLite file (recorded in `grdb_migrations`).
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for step in steps {
      migrator.registerMigration(step.name) { db in try db.execute(sql: step.sql) }
    }
    return migrator
  }
}
