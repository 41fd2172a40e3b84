import RinDomain
import RinRuntime
import RinStorage

/// What the jobs derived from a deleted account or contact, deleted (docs/OPERATIONS.md
/// "Erasure"): the accounts and contacts whose deletion was stamped since the last run, found
/// through the stamp indexes, a bounded batch of them per transaction, with the provider's
/// cached answers about their numbers and addresses; and once a period
/// (`ErasureWindows.sweepEvery`) a sweep of every table of ours for rows whose account or
/// contact is gone, which catches what the services deleted outright.
struct Erasure {
  let context: JobContext
  /// Accounts or contacts erased per transaction.
  let limit: Int

  /// A contact's rows are a handful: 50 contacts keep a transaction short.
  static let idsPerTransaction = 50
  /// An account's are a few thousand (its contacts' states, facts and cached answers, read with
  /// its contacts' numbers and addresses): a few accounts a transaction.
  static let accountsPerTransaction = 5

  private var cachedAnswers: CachedAnswerKeys { CachedAnswerKeys(config: context.config) }

  /// Where each walk over the deletion stamps stands (`verifiedThrough`), and when the last
  /// sweep ran.
  static let accountsScope = "erasure-accounts"
  static let contactsScope = "erasure-contacts"
  static let sweepScope = "erasure-sweep"

  func run() throws {
    let tables = try context.read { try $0.erasure.erasableTables() }
    // The services' writes may commit up to `ChangeStamp.margin` after the time they stamp: a
    // walk's mark never passes that, so the next run looks again at the last hour's deletions.
    let through = ChangeStamp.after(now: context.now, end: context.now)
    var batches = 0
    context.tally.details[HistoryRetentionDetails.self].accountsErased = try walk(
      "deleted accounts", scope: Self.accountsScope, batch: Self.accountsPerTransaction, through: through,
      batches: &batches,
      read: { try $0.erasure.deletedAccounts(stampedAfter: $1, from: $2, limit: $3) },
      erase: { tx, accounts in
        let keys = cachedAnswers.rowKeys(
          of: try EnrichmentQueries(tx: tx).channelsOfContacts(ofOwners: accounts))
        var rows = try tx.erasure.eraseAccounts(accounts, in: tables)
        rows["enrichment_lookups"] = try tx.erasure.deleteCachedAnswers(keys)
        return rows
      })
    context.tally.details[HistoryRetentionDetails.self].contactsErased = try walk(
      "deleted contacts", scope: Self.contactsScope, batch: limit, through: through, batches: &batches,
      read: { try $0.erasure.deletedContacts(stampedAfter: $1, from: $2, limit: $3) },
      erase: { tx, contacts in
        let keys = cachedAnswers.rowKeys(
          of: try EnrichmentQueries(tx: tx).channelsOfContacts(ids: contacts.map(\.id)))
        var rows = try tx.erasure.eraseContacts(contacts, in: tables)
        rows["enrichment_lookups"] = try tx.erasure.deleteCachedAnswers(keys)
        return rows
      })
    let lastSweep = try context.read {
      try $0.changeWatermark(job: .historyRetention, scope: Self.sweepScope)
    }
    if ErasureWindows.sweepIsDue(lastSweep: lastSweep?.verifiedThrough, now: context.now) {
      context.tally.details[HistoryRetentionDetails.self].erasureSweepRowsDeleted = try sweep(
        tables, batches: &batches)
      try mark(Self.sweepScope, at: context.now)
    }
  }

  /// The deletions stamped after the scope's mark, `batch` at a time (`read` gives the next
  /// batch after a cursor), each batch erased by `erase` in a transaction of its own with the
  /// mark moved past it: a run stopped by a signal or its time limit leaves the rest to the
  /// next run, which goes on from there. Returns how many were erased.
  private func walk<Deleted>(
    _ what: String, scope: String, batch size: Int, through: UTCInstant, batches: inout Int,
    read: (StorageTransaction, UTCInstant?, ErasureCursor?, Int) throws -> [StampedDeletion<Deleted>],
    erase: (StorageTransaction, [Deleted]) throws -> [String: Int]
  ) throws -> Int {
    let since = try context.read { try $0.changeWatermark(job: .historyRetention, scope: scope) }?
      .verifiedThrough
    var cursor: ErasureCursor?
    var erased = 0
    while true {
      try context.stopIfRequested(batchesCommitted: batches, done: "erasing \(erased) \(what)")
      let found = try context.read { try read($0, since, cursor, size) }
      guard let last = found.last else { break }
      // Deletions stamped before the last one's stamp are all erased now; its ties may not be.
      let passed = min(UTCInstant(seconds: last.cursor.stamp - 1), through)
      let rows = try context.write { tx in
        let rows = try erase(tx, found.map(\.deleted))
        if passed > (since ?? .min) { try mark(scope, at: passed, in: tx) }
        return rows
      }
      countErased(rows)
      batches += 1
      erased += found.count
      cursor = last.cursor
      if found.count < size { break }
    }
    if through > (since ?? .min) { try mark(scope, at: through) }
    return erased
  }

  private func mark(_ scope: String, at instant: UTCInstant, in tx: StorageTransaction? = nil) throws {
    let put = { (tx: StorageTransaction) in
      try tx.putChangeWatermark(
        ChangeWatermark(verifiedThrough: instant, windowEnd: context.now), job: .historyRetention,
        scope: scope)
    }
    if let tx { try put(tx) } else { try context.write(put) }
  }

  private func countErased(_ rows: [String: Int]) {
    let before = context.tally.details[HistoryRetentionDetails.self].erasedRows ?? 0
    context.tally.details[HistoryRetentionDetails.self].erasedRows = before + rows.values.reduce(0, +)
  }

  /// Every table of ours, for rows whose account or contact is gone or deleted by now.
  private func sweep(_ tables: [ErasableTable], batches: inout Int) throws -> Int {
    var deleted = 0
    func repeatUntilShort(_ what: String, _ delete: (StorageTransaction) throws -> Int) throws {
      while true {
        try context.stopIfRequested(batchesCommitted: batches, done: "sweeping \(what) for erased rows")
        let count = try context.write(delete)
        deleted += count
        batches += 1
        if count < limit { break }
      }
    }
    try repeatUntilShort("links to accounts gone") {
      try $0.erasure.unlinkAccountsGone(deletedBy: context.now, limit: limit)
    }
    try repeatUntilShort("supersessions") { try $0.erasure.deleteOrphanedSupersessions(limit: limit) }
    for table in tables {
      while true {
        try context.stopIfRequested(batchesCommitted: batches, done: "sweeping \(table.name) for erased rows")
        let count = try context.write {
          try $0.erasure.deleteLingering(in: table, deletedBy: context.now, limit: limit)
        }
        deleted += count
        batches += 1
        if count == 0 { break }
      }
    }
    return deleted
  }
}
