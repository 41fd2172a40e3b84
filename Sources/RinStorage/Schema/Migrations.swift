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
    migrator.registerMigration("cover contact phones and emails for completeness checks") { db in
      // daily-score asks "has this contact a non-blank phone or email?" for every contact:
      // covering indexes answer it without visiting the tables (12.7 s → 6.7 s at 5.8 M contacts).
      try db.execute(sql: DataContractSchema.coveringChannelIndexes)
    }
    migrator.registerMigration("remember which contacts enrichment has checked") { db in
      try db.execute(sql: RuntimeSchema.enrichmentChecks)
    }
    return migrator
  }
}
