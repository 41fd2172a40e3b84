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

/// A deletion a walk over the stamps found, and where the walk stands after it.
public struct StampedDeletion<Deleted: Sendable>: Sendable {
  public var deleted: Deleted
  public var cursor: ErasureCursor
}

/// A deleted contact and its owner.
public struct DeletedContact: Sendable, Equatable {
  public var id: ContactID
  public var ownerID: UserID

  public init(id: ContactID, ownerID: UserID) {
    self.id = id
    self.ownerID = ownerID
  }
}

extension ErasureQueries {
  /// Every table of ours with a `user_id` or `contact_id` column, by name: a table our
  /// migrations create (`Migrations.tablesCreated`) and not one of the services' input tables;
  /// on PostgreSQL, partitions are left out (their partitioned table stands for them).
  public func erasableTables() throws -> [ErasableTable] {
    var tables: [ErasableTable] = []
    let ours = Migrations.tablesCreated.subtracting(DataContract.inputTables)
    try sql.forEach(TableNamingOwners.self, sql.dialect.tablesNamingOwnersOrContacts) { row in
      if ours.contains(row.table.name) { tables.append(row.table) }
    }
    return tables
  }

  /// Up to `limit` accounts with `deleted_at` set whose change stamp (`users_by_change`) is after
  /// `since` (nil: any), in stamp order from after `cursor`.
  public func deletedAccounts(stampedAfter since: UTCInstant?, from cursor: ErasureCursor?, limit: Int)
    throws -> [StampedDeletion<UserID>]
  {
    try deleted(
      DeletedAccountRow.self, "users u", stamp: sql.dialect.createdOrDeletedStamp("u"), since: since,
      cursor: cursor,
      limit: limit)
  }

  /// Up to `limit` contacts with `deleted_at` set whose change stamp (`contacts_by_change`) is
  /// after `since` (nil: any), in stamp order from after `cursor`.
  public func deletedContacts(stampedAfter since: UTCInstant?, from cursor: ErasureCursor?, limit: Int)
    throws -> [StampedDeletion<DeletedContact>]
  {
    try deleted(
      DeletedContactRow.self, "contacts c", stamp: sql.dialect.contactChangeStamp("c"), since: since,
      cursor: cursor, limit: limit)
  }

  /// The rows of `table` (with its alias) with `deleted_at` set, walked by their stamp
  /// expression's index: `Row`'s columns of the table, then the stamp.
  private func deleted<Row: StampedDeletionRow>(
    _ type: Row.Type, _ table: String, stamp: String, since: UTCInstant?, cursor: ErasureCursor?, limit: Int
  ) throws -> [StampedDeletion<Row.Deleted>] {
    let alias = String(table.split(separator: " ").last ?? "")
    let columns = Row.Columns.allCases.dropLast().map { "\(alias).\($0.name)" }.joined(separator: ", ")
    var found: [StampedDeletion<Row.Deleted>] = []
    try sql.forEachInBatch(
      Row.self,
      """
      SELECT \(literal: columns), \(literal: stamp) AS stamp FROM \(literal: table)
      WHERE \(literal: alias).deleted_at IS NOT NULL AND \(stampedAfter(stamp, id: "\(alias).id", since: since, cursor: cursor))
      ORDER BY \(literal: stamp), \(literal: alias).id LIMIT \(.integer(Int64(limit)))
      """
    ) { row in
      found.append(StampedDeletion(deleted: row.deleted, cursor: ErasureCursor(stamp: row.stamp, id: row.id)))
    }
    return found
  }

  /// The stamp range of a walk: after `since`, and after the cursor in (stamp, id) order.
  private func stampedAfter(_ stamp: String, id: String, since: UTCInstant?, cursor: ErasureCursor?)
    -> SQLFragment
  {
    let after: SQLFragment = since.map { "\(literal: stamp) > \($0)" } ?? "1 = 1"
    guard let cursor else { return after }
    // `>=` first: the index range starts at the cursor; the `OR` only settles its ties.
    return """
      \(after) AND \(literal: stamp) >= \(cursor.stamp)
        AND (\(literal: stamp) > \(cursor.stamp) OR \(literal: id) > \(cursor.id))
      """
  }

  /// Deletes every row of `tables` that names one of `accounts` or one of their contacts, and
  /// the jobs' two columns of their `user_state` rows (the rest of the row is the services').
  /// Returns the rows deleted or cleared, by table.
  public func eraseAccounts(_ accounts: [UserID], in tables: [ErasableTable]) throws -> [String: Int] {
    guard !accounts.isEmpty else { return [:] }
    let owners = SQLDialect.list(accounts)
    var erased: [String: Int] = [:]
    // Keyed by suggestion, not by owner: it goes with the owner's suggestions.
    erased["circle_suggestion_supersessions"] = try sql.execute(
      """
      DELETE FROM circle_suggestion_supersessions
      WHERE \(sql.dialect.isIn("suggestion_id", subquery: "SELECT id FROM circle_suggestions WHERE user_id IN (\(owners))"))
      """)
    // A few accounts' contacts are thousands of rows: as a plain `IN (subquery)` PostgreSQL
    // hashed them against a scan of the whole table (all of `contact_enrichments`, each batch).
    let theirContacts = sql.dialect.isIn(
      "contact_id", subquery: "SELECT id FROM contacts WHERE user_id IN (\(owners))")
    for table in tables {
      let name = SQLDialect.quoted(table.name)
      // With both columns, both conditions: whichever the table is keyed by (`contact_states`
      // by contact, `score_contact_facts` by owner first) reaches the rows through its key.
      let condition: SQLFragment =
        table.namesAccounts && table.namesContacts
        ? "user_id IN (\(owners)) AND \(theirContacts)"
        : table.namesAccounts ? "\(table.jobPrefix)user_id IN (\(owners))" : theirContacts
      erased[table.name] = try sql.execute("DELETE FROM \(literal: name) WHERE \(condition)")
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
  func unlinkFromOtherBooks(_ accounts: [UserID]) throws -> [String: Int] {
    let accountList = SQLDialect.list(accounts)
    // Read once through `contacts_by_rin_user_with_owner`; each statement below probes keys.
    var contacts: [ContactID] = []
    var owners = Set<UserID>()
    try sql.forEachInBatch(
      LinkedContact.self, "SELECT id, user_id FROM contacts WHERE rin_user_id IN (\(accountList))"
    ) { row in
      contacts.append(row.id)
      owners.insert(row.userID)
    }
    guard !contacts.isEmpty else { return [:] }
    let dialect = sql.dialect
    let linked = dialect.isIn("contact_id", subquery: dialect.integerSet(contacts))
    let linkers = dialect.isIn("user_id", subquery: dialect.integerSet(owners.sorted()))
    var erased: [String: Int] = [:]
    erased["contact_enrichments"] = try sql.execute(
      """
      DELETE FROM contact_enrichments WHERE field = 'rin_user'
        AND value IN (\(SQLDialect.list(accounts.map { SQLValue.text(String($0.rawValue)) }))) AND \(linked)
      """)
    _ = try sql.execute("DELETE FROM score_contact_facts WHERE \(linkers) AND \(linked)")
    _ = try sql.execute("DELETE FROM score_owner_tallies WHERE \(linkers)")
    erased["contacts"] = try sql.execute(
      "UPDATE contacts SET rin_user_id = NULL WHERE rin_user_id IN (\(accountList))")
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
    try sql.forEachInBatch(
      SuggestionContacts.self, "SELECT id, contact_ids FROM circle_suggestions WHERE user_id IN (\(owners))"
    ) { row in
      let kept = SuggestionContactList.removing(gone, from: row.contactIDs)
      if kept != row.contactIDs { rewritten.append((row.id, kept)) }
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
  /// Key pairs per statement on PostgreSQL: a batch of five accounts has a few thousand.
  static let cachedAnswersPerStatement = 5_000

  /// Deletes the cached provider answers under `keys` (a deleted contact's numbers and
  /// addresses, hashed as enrichment-fetch hashes them); returns how many rows left.
  /// - SQLite: one statement a key, prepared once: a list of key pairs
  ///   (`(key_high, key_low) IN (…)`) read the whole cache for every statement.
  /// - PostgreSQL: one statement for thousands of keys, bound as two JSON arrays: the first
  ///   words probe the key's index (`= ANY(ARRAY(…))`), the pairs filter the rows found, so
  ///   that a key whose first word another key shares is never taken with it. A statement a
  ///   key cost the server a round trip each: 9,290 of them on an erasure night at S.
  public func deleteCachedAnswers(_ keys: Set<LookupCacheKey.RowKey>) throws -> Int {
    let sorted = keys.sorted(by: { ($0.high, $0.low) < ($1.high, $1.low) })
    var deleted = 0
    if sql.dialect.isPostgres {
      var start = sorted.startIndex
      while start < sorted.endIndex {
        let end = min(start + Self.cachedAnswersPerStatement, sorted.endIndex)
        deleted += try deleteCachedAnswers(together: sorted[start..<end])
        start = end
      }
    } else {
      for key in sorted {
        deleted += try sql.execute(
          "DELETE FROM enrichment_lookups WHERE key_high = \(key.high) AND key_low = \(key.low)")
      }
    }
    changes.record(
      "enrichment_lookups", .delete, count: deleted, sample: "\(deleted) cached answers of deleted contacts")
    return deleted
  }

  private func deleteCachedAnswers(together keys: ArraySlice<LookupCacheKey.RowKey>) throws -> Int {
    let highs = sql.dialect.integerSet(Array(Set(keys.map(\.high))).sorted())
    let pairs = SQLValue.text("[" + keys.map { "[\($0.high),\($0.low)]" }.joined(separator: ",") + "]")
    return try sql.execute(
      """
      DELETE FROM enrichment_lookups
      WHERE \(sql.dialect.isIn("key_high", subquery: highs))
        AND (key_high, key_low) IN (
          SELECT (p->>0)::bigint, (p->>1)::bigint FROM jsonb_array_elements(\(pairs)::jsonb) p)
      """)
  }
}

/// A table of ours and which of its columns name an account or a contact.
private struct TableNamingOwners: DecodableRow {
  enum Columns: Int, RowColumns { case name, namesAccounts, namesContacts, isKeyedByJob }
  static let table = "the catalog"
  let table: ErasableTable

  init(_ row: RowDecoder<Columns>) throws {
    table = ErasableTable(
      name: try row.text(.name), namesAccounts: try row.integer(.namesAccounts) > 0,
      namesContacts: try row.integer(.namesContacts) > 0, isKeyedByJob: try row.integer(.isKeyedByJob) > 0)
  }
}

/// A deleted row as the stamp walk reads it: its own columns, then its stamp (the last case).
private protocol StampedDeletionRow: DecodableRow {
  associatedtype Deleted
  var id: Int64 { get }
  var stamp: Int64 { get }
  var deleted: Deleted { get }
}

private struct DeletedAccountRow: StampedDeletionRow {
  enum Columns: Int, RowColumns { case id, stamp }
  static let table = "users"
  let id: Int64
  let stamp: Int64
  var deleted: UserID { UserID(rawValue: id) }

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    stamp = try row.integer(.stamp)
  }
}

private struct DeletedContactRow: StampedDeletionRow {
  enum Columns: Int, RowColumns { case id, userID, stamp }
  static let table = "contacts"
  let id: Int64
  let stamp: Int64
  let deleted: DeletedContact

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    stamp = try row.integer(.stamp)
    deleted = DeletedContact(id: ContactID(rawValue: id), ownerID: row.key(.userID))
  }
}

/// A contact of another book linked to an erased account.
private struct LinkedContact: DecodableRow {
  enum Columns: Int, RowColumns { case id, userID }
  static let table = "contacts"
  let id: ContactID
  let userID: UserID

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    userID = row.key(.userID)
  }
}

private struct SuggestionContacts: DecodableRow {
  enum Columns: Int, RowColumns { case id, contactIDs }
  static let table = "circle_suggestions"
  let id: Int64
  let contactIDs: String

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    contactIDs = try row.text(.contactIDs)
  }
}
