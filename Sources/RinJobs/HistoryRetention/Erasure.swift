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

  /// The mark of the stamps walked (`verifiedThrough`) and of the last sweep.
  static let stampsScope = "erasure"
  static let sweepScope = "erasure-sweep"

  func run() throws {
    let tables = try context.read { try $0.erasure.erasableTables() }
    let marks = try context.read { tx in
      (
        stamps: try tx.changeWatermark(job: .historyRetention, scope: Self.stampsScope),
        sweep: try tx.changeWatermark(job: .historyRetention, scope: Self.sweepScope)
      )
    }
    let since = marks.stamps?.verifiedThrough
    context.tally.details.historyRetention.accountsErased = try eraseAccounts(
      stampedAfter: since, tables: tables)
    context.tally.details.historyRetention.contactsErased = try eraseContacts(
      stampedAfter: since, tables: tables)
    if ErasureWindows.sweepIsDue(lastSweep: marks.sweep?.verifiedThrough, now: context.now) {
      context.tally.details.historyRetention.erasureSweepRowsDeleted = try sweep(tables)
      try context.write {
        try $0.putChangeWatermark(
          ChangeWatermark(verifiedThrough: context.now, windowEnd: context.now), job: .historyRetention,
          scope: Self.sweepScope)
      }
    }
    let through = ChangeStamp.after(now: context.now, end: context.now)
    try context.write {
      try $0.putChangeWatermark(
        ChangeWatermark(verifiedThrough: max(through, since ?? .min), windowEnd: context.now),
        job: .historyRetention, scope: Self.stampsScope)
    }
  }

  private func eraseAccounts(stampedAfter since: UTCInstant?, tables: [ErasableTable]) throws -> Int {
    var cursor: ErasureCursor?
    var erased = 0
    while true {
      try context.stopIfRequested(batchesCommitted: 0, done: "erasing \(erased) deleted accounts")
      let batch = try context.read {
        try $0.erasure.deletedAccounts(stampedAfter: since, from: cursor, limit: Self.accountsPerTransaction)
      }
      guard let last = batch.last else { return erased }
      let accounts = batch.map(\.id)
      let rows = try context.write { tx in
        let keys = cachedAnswers.rowKeys(of: try tx.enrichment.channelsOfContacts(ofOwners: accounts))
        var rows = try tx.erasure.eraseAccounts(accounts, in: tables)
        rows["enrichment_lookups"] = try tx.erasure.deleteCachedAnswers(keys)
        return rows
      }
      erased += batch.count
      countErased(rows)
      cursor = last.cursor
      if batch.count < Self.accountsPerTransaction { return erased }
    }
  }

  private func eraseContacts(stampedAfter since: UTCInstant?, tables: [ErasableTable]) throws -> Int {
    var cursor: ErasureCursor?
    var erased = 0
    while true {
      try context.stopIfRequested(batchesCommitted: 0, done: "erasing \(erased) deleted contacts")
      let batch = try context.read {
        try $0.erasure.deletedContacts(stampedAfter: since, from: cursor, limit: limit)
      }
      guard let last = batch.last else { return erased }
      let contacts = batch.map(\.contact)
      let rows = try context.write { tx in
        let keys = cachedAnswers.rowKeys(of: try tx.enrichment.channelsOfContacts(ids: contacts.map(\.id)))
        var rows = try tx.erasure.eraseContacts(contacts, in: tables)
        rows["enrichment_lookups"] = try tx.erasure.deleteCachedAnswers(keys)
        return rows
      }
      erased += batch.count
      countErased(rows)
      cursor = last.cursor
      if batch.count < limit { return erased }
    }
  }

  private func countErased(_ rows: [String: Int]) {
    let before = context.tally.details.historyRetention.erasedRows ?? 0
    context.tally.details.historyRetention.erasedRows = before + rows.values.reduce(0, +)
  }

  /// Every table of ours, for rows whose account or contact is gone or deleted by now.
  private func sweep(_ tables: [ErasableTable]) throws -> Int {
    var deleted = 0
    while true {
      try context.stopIfRequested(batchesCommitted: 0, done: "sweeping supersessions for erased rows")
      let count = try context.write { try $0.erasure.deleteOrphanedSupersessions(limit: limit) }
      deleted += count
      if count < limit { break }
    }
    for table in tables {
      while true {
        try context.stopIfRequested(batchesCommitted: 0, done: "sweeping \(table.name) for erased rows")
        let count = try context.write {
          try $0.erasure.deleteLingering(in: table, deletedBy: context.now, limit: limit)
        }
        deleted += count
        if count == 0 { break }
      }
    }
    return deleted
  }
}
