/// Tables a run fills and empties itself. On PostgreSQL a B-tree keeps the pages its deleted
/// entries emptied until a vacuum, and the file keeps its largest size after it: the index of
/// `provider_key_claims`, empty between runs, measured 31.6 MB at 500 users after four
/// nights. SQLite gives a deleted row's pages back to the file's free list, which every table
/// takes its new pages from: nothing to do there.
public enum RunScratchTable: String, Sendable, CaseIterable {
  case providerKeyClaims = "provider_key_claims"
}

/// What `Storage.emptyIfIdle` did.
public enum EmptyIfIdleOutcome: Sendable, Equatable {
  case emptied
  /// Rows left (a worker's claims), another session held the table, or nothing to do here.
  case leftAsIs
  /// The job role lacks `TRUNCATE` on the table (docs/OPERATIONS.md "Roles and grants").
  case notPermitted
}

extension Storage {
  /// PostgreSQL: `TRUNCATE`s `table` when it holds no row and no other session has it locked
  /// (`LOCK … NOWAIT`: a worker writing claims keeps it, and nobody waits), which gives its heap
  /// and index files back at their first page. Nothing on SQLite or in a dry run.
  @discardableResult
  public func emptyIfIdle(_ table: RunScratchTable) throws -> EmptyIfIdleOutcome {
    guard isPostgres, !isDryRun else { return .leftAsIs }
    do {
      return try write { tx in
        try tx.sql.execute("LOCK TABLE \(literal: table.rawValue) IN ACCESS EXCLUSIVE MODE NOWAIT")
        let rows = try tx.sql.integerValue(
          "SELECT count(*) AS value FROM (SELECT 1 FROM \(literal: table.rawValue) LIMIT 1) x")
        guard rows == 0 else { return .leftAsIs }
        try tx.sql.execute("TRUNCATE \(literal: table.rawValue)")
        return .emptied
      }
    } catch let error as StorageError where error.code == .lockTimeout {
      return .leftAsIs
    } catch let error as StorageError where error.code == .permissionDenied {
      return .notPermitted
    }
  }
}
