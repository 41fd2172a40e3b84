import GRDB

/// Append-only: a released migration is never edited; a change is a new migration.
enum Migrations {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("create the data contract tables") { db in
      try db.execute(sql: DataContractSchema.inputTables)
      try db.execute(sql: DataContractSchema.outputTables)
    }
    migrator.registerMigration("index the data contract for per-user batches") { db in
      try db.execute(sql: DataContractSchema.jobIndexes)
    }
    migrator.registerMigration("create the run ledger, leases and checkpoints") { db in
      try db.execute(sql: RuntimeSchema.tables)
    }
    return migrator
  }
}
