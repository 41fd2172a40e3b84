import RinDomain

/// Erasure's statements (docs/OPERATIONS.md "Erasure"): what the jobs derived from a deleted
/// account or contact, found from the services' deletion stamps and deleted from every table of
/// ours that names them. Reached as `tx.erasure`.
///
/// The tables are read from the schema, not listed here: every table that is not the services'
/// (`DataContract.inputTables`) and has a `user_id` or a `contact_id` column is erased by that
/// column, so a table a later migration adds is covered without editing this file.
public struct ErasureQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// Erasure's statements.
  public var erasure: ErasureQueries { ErasureQueries(tx: self) }
}

/// A table of ours that names accounts (`user_id`) or contacts (`contact_id`), as the schema
/// says.
public struct ErasableTable: Sendable, Equatable {
  public var name: String
  public var namesAccounts: Bool
  public var namesContacts: Bool
  /// Keyed by job first (`owner_examinations`, `changed_owners`, `periodic_pass_owners`): a
  /// delete by owner names every job, so that the key is used rather than read whole.
  public var isKeyedByJob: Bool

  public init(name: String, namesAccounts: Bool, namesContacts: Bool, isKeyedByJob: Bool = false) {
    self.name = name
    self.namesAccounts = namesAccounts
    self.namesContacts = namesContacts
    self.isKeyedByJob = isKeyedByJob
  }

  /// `job IN (every job) AND ` for a table keyed by job first; nothing for another.
  var jobPrefix: SQLFragment {
    isKeyedByJob ? "job IN (\(SQLDialect.list(JobName.allCases.map { .text($0.rawValue) }))) AND " : ""
  }
}

/// Where a walk over deletion stamps stands: the stamp and id of the last row read.
public struct ErasureCursor: Sendable, Equatable {
  public var stamp: Int64
  public var id: Int64

  public init(stamp: Int64, id: Int64) {
    self.stamp = stamp
    self.id = id
  }
}

/// A deleted contact and its owner.
public struct DeletedContact: Sendable, Equatable {
  public var id: Int64
  public var ownerID: Int64

  public init(id: Int64, ownerID: Int64) {
    self.id = id
    self.ownerID = ownerID
  }
}

extension ErasureQueries {
  /// Every table of ours with a `user_id` or `contact_id` column, by name; the services' tables
  /// and, on PostgreSQL, partitions (their partitioned table stands for them) left out.
  public func erasableTables() throws -> [ErasableTable] {
    var tables: [ErasableTable] = []
    let services = Set(DataContract.inputTables)
    try sql.forEachRow(sql.dialect.tablesNamingOwnersOrContacts) { row in
      guard let name = row.text(0), !services.contains(name) else { return }
      tables.append(
        ErasableTable(
          name: name, namesAccounts: row.integer(1) > 0, namesContacts: row.integer(2) > 0,
          isKeyedByJob: row.integer(3) > 0))
    }
    return tables
  }

  /// Up to `limit` accounts with `deleted_at` set whose change stamp (`users_by_change`) is after
  /// `since` (nil: any), in stamp order from after `cursor`.
  public func deletedAccounts(stampedAfter since: UTCInstant?, from cursor: ErasureCursor?, limit: Int)
    throws -> [(id: Int64, cursor: ErasureCursor)]
  {
    let stamp = sql.dialect.createdOrDeletedStamp("u")
    var found: [(id: Int64, cursor: ErasureCursor)] = []
    try sql.forEachBatchRow(
      """
      SELECT u.id, \(literal: stamp) FROM users u
      WHERE u.deleted_at IS NOT NULL AND \(stampedAfter(stamp, id: "u.id", since: since, cursor: cursor))
      ORDER BY \(literal: stamp), u.id LIMIT \(.integer(Int64(limit)))
      """
    ) { row in
      guard let id = row.int64(0) else { return }
      found.append((id, ErasureCursor(stamp: row.integer(1), id: id)))
    }
    return found
  }

  /// Up to `limit` contacts with `deleted_at` set whose change stamp (`contacts_by_change`) is
  /// after `since` (nil: any), in stamp order from after `cursor`.
  public func deletedContacts(stampedAfter since: UTCInstant?, from cursor: ErasureCursor?, limit: Int)
    throws -> [(contact: DeletedContact, cursor: ErasureCursor)]
  {
    let stamp = sql.dialect.contactChangeStamp("c")
    var found: [(contact: DeletedContact, cursor: ErasureCursor)] = []
    try sql.forEachBatchRow(
      """
      SELECT c.id, c.user_id, \(literal: stamp) FROM contacts c
      WHERE c.deleted_at IS NOT NULL AND \(stampedAfter(stamp, id: "c.id", since: since, cursor: cursor))
      ORDER BY \(literal: stamp), c.id LIMIT \(.integer(Int64(limit)))
      """
    ) { row in
      guard let id = row.int64(0), let owner = row.int64(1) else { return }
      found.append((DeletedContact(id: id, ownerID: owner), ErasureCursor(stamp: row.integer(2), id: id)))
    }
    return found
  }

  /// The stamp range of a walk: after `since`, and after the cursor in (stamp, id) order.
  private func stampedAfter(_ stamp: String, id: String, since: UTCInstant?, cursor: ErasureCursor?)
    -> SQLFragment
  {
    let after: SQLFragment = since.map { "\(literal: stamp) > \($0)" } ?? "1 = 1"
    guard let cursor else { return after }
    return """
      \(after) AND (\(literal: stamp) > \(cursor.stamp) OR (\(literal: stamp) = \(cursor.stamp) AND \(literal: id) > \(cursor.id)))
      """
  }

  /// Deletes every row of `tables` that names one of `accounts` or one of their contacts, and
  /// the jobs' two columns of their `user_state` rows (the rest of the row is the services').
  /// Returns the rows deleted or cleared, by table.
  public func eraseAccounts(_ accounts: [Int64], in tables: [ErasableTable]) throws -> [String: Int] {
    guard !accounts.isEmpty else { return [:] }
    let owners = SQLDialect.list(accounts)
    var erased: [String: Int] = [:]
    // Keyed by suggestion, not by owner: it goes with the owner's suggestions.
    erased["circle_suggestion_supersessions"] = try sql.execute(
      """
      DELETE FROM circle_suggestion_supersessions WHERE suggestion_id IN (
        SELECT id FROM circle_suggestions WHERE user_id IN (\(owners)))
      """)
    for table in tables {
      let name = SQLDialect.quoted(table.name)
      if table.namesAccounts {
        erased[table.name] = try sql.execute(
          "DELETE FROM \(literal: name) WHERE \(table.jobPrefix)user_id IN (\(owners))")
      } else if table.namesContacts {
        erased[table.name] = try sql.execute(
          "DELETE FROM \(literal: name) WHERE contact_id IN (SELECT id FROM contacts WHERE user_id IN (\(owners)))"
        )
      }
    }
    erased.merge(try unlinkFromOtherBooks(accounts), uniquingKeysWith: +)
    erased["user_state"] = try sql.execute(
      """
      UPDATE user_state SET score_changed_at = NULL, score_card_expires_at = NULL
      WHERE user_id IN (\(owners)) AND (score_changed_at IS NOT NULL OR score_card_expires_at IS NOT NULL)
      """)
    return record(erased.filter { $0.value > 0 }, what: "\(accounts.count) deleted accounts")
  }

  /// Other owners' contacts that enrichment-fetch linked to one of `accounts` (`rin_user_id`,
  /// a column of ours) are unlinked and lose their `rin_user` enrichment. Their owners' score
  /// tallies and those contacts' score facts are forgotten, so that daily-score counts them
  /// again: with the link gone, the deleted account's stamp no longer leads its pass to them.
  private func unlinkFromOtherBooks(_ accounts: [Int64]) throws -> [String: Int] {
    let linked: SQLFragment = "SELECT id FROM contacts WHERE rin_user_id IN (\(SQLDialect.list(accounts)))"
    var owners = Set<Int64>()
    try sql.forEachBatchRow(
      "SELECT DISTINCT user_id FROM contacts WHERE rin_user_id IN (\(SQLDialect.list(accounts)))"
    ) {
      if let owner = $0.int64(0) { owners.insert(owner) }
    }
    guard !owners.isEmpty else { return [:] }
    let ownerList = SQLDialect.list(owners.sorted())
    var erased: [String: Int] = [:]
    erased["contact_enrichments"] = try sql.execute(
      """
      DELETE FROM contact_enrichments WHERE field = 'rin_user'
        AND value IN (\(SQLDialect.list(accounts.map { SQLValue.text(String($0)) }))) AND contact_id IN (\(linked))
      """)
    _ = try sql.execute(
      "DELETE FROM score_contact_facts WHERE user_id IN (\(ownerList)) AND contact_id IN (\(linked))")
    try tx.dailyScore.forgetScoreTallies(of: owners.sorted())
    erased["contacts"] = try sql.execute(
      "UPDATE contacts SET rin_user_id = NULL WHERE rin_user_id IN (\(SQLDialect.list(accounts)))")
    return erased
  }

  /// Deletes every row of `tables` that names one of `contacts` (by owner and contact where a
  /// table has both, so that its owner-first key is used), their owners' notifications that
  /// link to them, and their ids from their owners' suggestions. Returns the rows deleted or
  /// changed, by table.
  public func eraseContacts(_ contacts: [DeletedContact], in tables: [ErasableTable]) throws -> [String: Int]
  {
    guard !contacts.isEmpty else { return [:] }
    let ids = SQLDialect.list(contacts.map(\.id))
    let owners = SQLDialect.list(Set(contacts.map(\.ownerID)).sorted())
    var erased: [String: Int] = [:]
    for table in tables where table.namesContacts {
      let name = SQLDialect.quoted(table.name)
      erased[table.name] = try sql.execute(
        table.namesAccounts
          ? "DELETE FROM \(literal: name) WHERE user_id IN (\(owners)) AND contact_id IN (\(ids))"
          : "DELETE FROM \(literal: name) WHERE contact_id IN (\(ids))")
    }
    let links = SQLDialect.list(contacts.map { SQLValue.text(Notifications.contactDeepLink($0.id)) })
    erased["notification_outbox", default: 0] += try sql.execute(
      "DELETE FROM notification_outbox WHERE user_id IN (\(owners)) AND deep_link IN (\(links))")
    erased["circle_suggestions"] = try removeFromSuggestions(contacts, owners: owners)
    return record(erased.filter { $0.value > 0 }, what: "\(contacts.count) deleted contacts")
  }

  /// Takes `contacts` out of their owners' suggestions' `contact_ids`, whatever the status: the
  /// fingerprint (a hash) stays, so a dismissal still holds for the group it was made on. An
  /// open suggestion left with too few candidates is superseded by circle-patterns' next
  /// examination of the owner, whose contact's deletion stamped them as changed.
  private func removeFromSuggestions(_ contacts: [DeletedContact], owners: SQLFragment) throws -> Int {
    let gone = Set(contacts.map(\.id))
    var rewritten: [(id: Int64, list: String)] = []
    try sql.forEachBatchRow("SELECT id, contact_ids FROM circle_suggestions WHERE user_id IN (\(owners))") {
      row in
      guard let id = row.int64(0), let list = row.text(1) else { return }
      let kept = SuggestionContactList.removing(gone, from: list)
      if kept != list { rewritten.append((id, kept)) }
    }
    for row in rewritten {
      _ = try sql.execute(
        "UPDATE circle_suggestions SET contact_ids = \(.text(row.list)) WHERE id = \(row.id)")
    }
    return rewritten.count
  }

  private func record(_ erased: [String: Int], what: String) -> [String: Int] {
    // Both keep their rows: a row's job columns, or a suggestion's list, are what changes.
    let updatedInPlace: Set<String> = ["user_state", "circle_suggestions", "contacts"]
    for (table, count) in erased {
      changes.record(
        table, updatedInPlace.contains(table) ? .update : .delete, count: count,
        sample: "\(count) rows of \(what)")
    }
    return erased
  }
}

extension ErasureQueries {
  /// Deletes the cached provider answers under `keys` (a deleted contact's numbers and
  /// addresses, hashed as enrichment-fetch hashes them); returns how many rows left.
  public func deleteCachedAnswers(_ keys: Set<LookupCacheKey.RowKey>) throws -> Int {
    guard !keys.isEmpty else { return 0 }
    var deleted = 0
    // Bounded statements: a deleted account's book can hold thousands of keys.
    let sorted = keys.sorted { ($0.high, $0.low) < ($1.high, $1.low) }
    for start in stride(from: 0, to: sorted.count, by: Self.keysPerStatement) {
      let chunk = sorted[start..<min(start + Self.keysPerStatement, sorted.count)]
      let pairs = chunk.map { key -> SQLFragment in "(\(key.high), \(key.low))" }
      var list: SQLFragment = ""
      for (index, pair) in pairs.enumerated() { list.append(index == 0 ? pair : ", \(pair)") }
      deleted += try sql.execute("DELETE FROM enrichment_lookups WHERE (key_high, key_low) IN (\(list))")
    }
    changes.record(
      "enrichment_lookups", .delete, count: deleted, sample: "\(deleted) cached answers of deleted contacts")
    return deleted
  }

  static let keysPerStatement = 500
}
