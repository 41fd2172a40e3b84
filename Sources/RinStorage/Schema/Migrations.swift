import Foundation

/// Append-only: a released migration is never edited; a change is a new migration. Each is
/// written once in SQLite's DDL; `PostgresSchema` gives PostgreSQL's types for the same text.
enum Migrations {
  struct Step: Sendable {
    /// What applying a step may hold up.
    enum Kind: Sendable {
      /// Our own tables, or a change the services' writes can wait for: one transaction.
      case schema
      /// An index on a table the online services write or the app reads (one `CREATE INDEX`,
      /// then the `DROP INDEX` of any index it replaces; or drops alone): on PostgreSQL built
      /// and dropped with `CONCURRENTLY`, outside a transaction, by `rinjobs migrate`
      /// (docs/OPERATIONS.md "Upgrading the schema").
      case serviceIndex
      /// PostgreSQL only: `score_snapshots` turned into a table partitioned by day
      /// (`ScoreSnapshotPartitioning`). A new database gets it in the migration's transaction;
      /// a database in use gets it from `rinjobs migrate`, which converts the table while the
      /// app reads it. SQLite has no partitions: the step records itself and changes nothing.
      case partitionsScoreSnapshots
    }

    let name: String
    /// SQLite's DDL; PostgreSQL's is derived from it (`PostgresSchema.ddl`) unless `postgres`
    /// says otherwise.
    let sql: String
    var kind = Kind.schema
    /// PostgreSQL's own DDL, for a step that only one backend needs in this form.
    var postgres: String? = nil

    /// The step's statements, one per `;`-terminated line group (our DDL has no `;` inside one);
    /// a group of comments alone is none.
    var statements: [String] {
      sql.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
        $0.split(separator: "\n").contains { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
      }
    }
  }

  /// The steps that build the stamp indexes `collectOwnersChanged` ranges over.
  static let stampIndexSteps: Set<String> = [
    "index contacts by the time they last changed", "index users by the time they were created or deleted",
    "index circles by the time they were created or deleted",
    "index circle members by the time they were added",
    "index circle removals by the time they were made",
  ]

  static let steps: [Step] = [
    Step(
      name: "create the data contract tables",
      sql: DataContractSchema.inputTables + "\n" + DataContractSchema.outputTables),
    Step(name: "index the data contract for per-user batches", sql: DataContractSchema.jobIndexes),
    Step(name: "create the run ledger, leases and checkpoints", sql: RuntimeSchema.tables),
    // daily-score asks "has this contact a non-blank phone or email?" for every contact:
    // covering indexes answer it without visiting the tables.
    Step(
      name: "cover contact phones and emails for completeness checks",
      sql: DataContractSchema.coveringChannelIndexes),
    Step(name: "remember which contacts enrichment has checked", sql: RuntimeSchema.enrichmentChecks),
    Step(name: "remember each provider's circuit breaker", sql: RuntimeSchema.providerBreakers),
    Step(
      name: "remember what circle patterns derived from each contact's phones",
      sql: RuntimeSchema.circlePhoneEvidence),
    Step(
      name: "index live contacts' birthdays by owner", sql: DataContractSchema.liveBirthdaysByOwner,
      kind: .serviceIndex),
    Step(
      name: "index contacts by owner for the score", sql: DataContractSchema.contactsForScoreByOwner,
      kind: .serviceIndex),
    Step(name: "remember each contact's score facts by owner", sql: RuntimeSchema.scoreContactFacts),
    Step(
      name: "cover circle members by circle with the time they were added",
      sql: DataContractSchema.circleMembersByCircleWithAddedAt, kind: .serviceIndex),
    Step(
      name: "cover contacts by Rin user for mutual checks",
      sql: DataContractSchema.contactsByRinUserForMutualChecks, kind: .serviceIndex),
    Step(name: "remember what jobs last examined of each owner", sql: RuntimeSchema.ownerExaminations),
    Step(
      name: "remember the buckets of each owner's contacts' numbers",
      sql: RuntimeSchema.enrichmentOwnerBuckets),
    Step(
      name: "share each provider's request rate, daily lookups and keys in flight among workers",
      sql: RuntimeSchema.providerAllowances),
    Step(name: "remember which pipelines are paused", sql: RuntimeSchema.pipelinePauses),
    Step(name: "count why runs did not start or stopped early", sql: RuntimeSchema.jobSkips),
    // The app reads upcoming_events: on PostgreSQL the drop waits for `rinjobs migrate`, which
    // drops it CONCURRENTLY, so that no read waits on the table's lock.
    Step(
      name: "drop the owner index of upcoming events that their key already covers",
      sql: DataContractSchema.dropUpcomingEventsByOwner, kind: .serviceIndex),
    Step(name: "remember what daily-score counted of each owner", sql: RuntimeSchema.scoreOwnerTallies),
    Step(
      name: "index contacts by owner and the time they last changed",
      sql: DataContractSchema.contactsByOwnerAndChange, kind: .serviceIndex),
    Step(
      name: "index contacts linked to Rin users by owner",
      sql: DataContractSchema.contactsWithRinUserByOwner, kind: .serviceIndex),
    Step(
      name: "remember what upcoming birthdays computed each owner's rows from",
      sql: RuntimeSchema.upcomingOwnerStates),
    Step(
      name: "index circle members by circle and the time they were added",
      sql: DataContractSchema.circleMembersByCircleAndAddedAt, kind: .serviceIndex),
    Step(
      name: "cover circle removals by circle with the time they were made",
      sql: DataContractSchema.circleRemovalsByCircleWithRemovedAt, kind: .serviceIndex),
    Step(
      name: "remember how far each job checked every owner for changes",
      sql: RuntimeSchema.changeWatermarks),
    Step(
      name: "index contacts by the time they last changed", sql: DataContractSchema.contactsByChange,
      kind: .serviceIndex),
    Step(
      name: "index users by the time they were created or deleted", sql: DataContractSchema.usersByChange,
      kind: .serviceIndex),
    Step(
      name: "index circles by the time they were created or deleted", sql: DataContractSchema.circlesByChange,
      kind: .serviceIndex),
    Step(
      name: "index circle members by the time they were added",
      sql: DataContractSchema.circleMembersByAddedAt,
      kind: .serviceIndex),
    Step(
      name: "index circle removals by the time they were made",
      sql: DataContractSchema.circleRemovalsByRemovedAt,
      kind: .serviceIndex),
    Step(
      name: "index live contacts by owner and the month and day of their birthday",
      sql: DataContractSchema.liveBirthdayDaysByOwner, kind: .serviceIndex),
    Step(
      name: "remember which verified users each enrichment check saw",
      sql: RuntimeSchema.enrichmentCheckRinUsers),
    Step(name: "key provider key claims by their key first", sql: RuntimeSchema.providerKeyClaimsByKeyFirst),
    Step(
      name: "remember each contact's digest for the periodic pass over the contact-id range",
      sql: RuntimeSchema.periodicPass),
    Step(
      name: "keep the stamped part of each owner's fingerprint",
      sql: RuntimeSchema.ownerExaminationStampedRows),
    Step(
      name: "cover each contact's digest and owner in the key of the digests",
      sql: RuntimeSchema.contactDigestsCovered, postgres: RuntimeSchema.contactDigestsCoveredOnPostgres),
    Step(
      name: "remember the owner's region each examination read", sql: RuntimeSchema.ownerExaminationRegion),
    Step(
      name: "mark the slots a catch-up superseded in a column of the run ledger",
      sql: RuntimeSchema.runsSupersededBy, postgres: RuntimeSchema.runsSupersededByOnPostgres),
    Step(
      name: "partition score snapshots by day", sql: "-- PostgreSQL only (ScoreSnapshotPartitioning)",
      kind: .partitionsScoreSnapshots, postgres: ScoreSnapshotPartitioning.newDatabaseDDL),
    Step(
      name: "remember when each circle suggestion was superseded",
      sql: RetentionSchema.suggestionSupersessions,
      postgres: RetentionSchema.suggestionSupersessionsOnPostgres),
    // PostgreSQL's snapshots leave by partitions (the step above), and an index on the
    // partitioned table cannot be built CONCURRENTLY: SQLite's batched deletes alone need it.
    Step(
      name: "index score snapshots by day", sql: RetentionSchema.scoreSnapshotsByDay, kind: .serviceIndex,
      postgres: "-- PostgreSQL: score_snapshots is partitioned by day"),
    Step(
      name: "index sent notifications by the time they were sent",
      sql: RetentionSchema.sentNotificationsBySentAt,
      kind: .serviceIndex),
    Step(
      name: "index unsent notifications by the time they were queued",
      sql: RetentionSchema.unsentNotificationsByCreatedAt, kind: .serviceIndex),
    // daily-score's "reached 60 before?" outlives the snapshots history-retention deletes.
    Step(
      name: "remember the first day each user's score reached the milestone",
      sql: RetentionSchema.scoreMilestones),
    Step(name: "remember when badge-recount last counted each user", sql: RuntimeSchema.badgeChecks),
    Step(name: "keep what each recorded freshness check found", sql: RuntimeSchema.freshnessChecks),
    Step(
      name: "key the lookup cache by a binary digest and keep no response for a no-match",
      sql: LookupCacheSchema.byBinaryKey, postgres: LookupCacheSchema.byBinaryKeyOnPostgres),
    Step(
      name: "remember how far retention swept the lookup cache for expired answers",
      sql: RetentionSchema.lookupCacheSweep),
    // Indexes of ours on the services' tables whose reads a kept index serves as well
    // (docs/OPERATIONS.md "Footprint"). On PostgreSQL a drop waits for `rinjobs migrate`, which
    // drops it CONCURRENTLY.
    Step(
      name: "index contact phones by contact alone again",
      sql: DataContractSchema.contactPhonesByContactAlone,
      kind: .serviceIndex, postgres: DataContractSchema.channelIndexesOnPostgres),
    Step(
      name: "index contact emails by contact alone again",
      sql: DataContractSchema.contactEmailsByContactAlone,
      kind: .serviceIndex, postgres: DataContractSchema.channelIndexesOnPostgres),
    Step(
      name: "drop the index of contacts by owner and the time they last changed",
      sql: DataContractSchema.dropContactsByOwnerAndChange, kind: .serviceIndex),
    Step(
      name: "drop the index of contacts linked to Rin users by owner",
      sql: DataContractSchema.dropContactsWithRinUserByOwner, kind: .serviceIndex),
    Step(
      name: "drop the index of circle members by circle and the time they were added",
      sql: DataContractSchema.dropCircleMembersByCircleAndAddedAt, kind: .serviceIndex),
    Step(
      name: "drop the index of circle members by contact", sql: DataContractSchema.dropCircleMembersByContact,
      kind: .serviceIndex),
    Step(
      name: "drop the index of live contacts' birthdays by owner",
      sql: DataContractSchema.dropLiveBirthdaysByOwner, kind: .serviceIndex),
    Step(
      name: "keep each contact's state for every job in one row",
      sql: ContactStateSchema.merged, postgres: ContactStateSchema.mergedOnPostgres),
    Step(
      name: "remember which of each owner's contacts share a bucket with a verified user",
      sql: RuntimeSchema.enrichmentOwnerOccupiedBuckets),
    Step(
      name: "drop badge-recount's per-user checks, which its change watermark replaces",
      sql: RuntimeSchema.dropBadgeChecks),
  ]
}
