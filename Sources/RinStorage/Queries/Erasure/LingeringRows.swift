import RinDomain

/// Rows of ours that outlived their account or contact: the sweep that deletes them (hard
/// deletes, and deletions no stamp showed) and the read-only check that counts them
/// (`rinjobs erasure`). One predicate for both, so that what the check reports is what the
/// sweep deletes.
extension ErasureQueries {
  /// Deletes up to `limit` rows' worth of `table`'s rows whose account or contact is gone or
  /// deleted at or before `deletedBy`: the rows of up to `limit` such owners or contacts.
  /// Returns how many rows left. Reads the whole table: the sweep runs once a period.
  ///
  /// A contact deleted outright leaves no stamp: the periodic pass finds it by the digest in
  /// `contact_states` that no contact matches any more. Its row going here, its owner is left
  /// for circle-patterns' and enrichment-fetch's next examination (`periodic_pass_owners`) and
  /// daily-score counts the owner again, as the pass would have made them.
  public func deleteLingering(in table: ErasableTable, deletedBy: UTCInstant, limit: Int) throws -> Int {
    let name = SQLDialect.quoted(table.name)
    var deleted = 0
    if table.namesAccounts {
      deleted += try sql.execute(
        """
        DELETE FROM \(literal: name) WHERE user_id IN (
          SELECT t.user_id FROM \(literal: name) t WHERE \(accountGone(deletedBy)) LIMIT \(.integer(Int64(limit))))
        """)
    }
    if table.namesContacts {
      var contacts: [ContactID] = []
      var owners = Set<UserID>()
      let owner = table.namesAccounts ? "t.user_id" : "NULL"
      try sql.forEachInBatch(
        LingeringContactRow.self,
        """
        SELECT t.contact_id, \(literal: owner) AS user_id FROM \(literal: name) t WHERE \(contactGone(deletedBy))
        LIMIT \(.integer(Int64(limit)))
        """
      ) { row in
        if let contact = row.contactID { contacts.append(contact) }
        if let user = row.userID { owners.insert(user) }
      }
      if !contacts.isEmpty {
        deleted += try sql.execute(
          "DELETE FROM \(literal: name) WHERE contact_id IN (\(SQLDialect.list(Set(contacts).sorted())))")
        try reexamine(owners)
      }
    }
    if deleted > 0 {
      changes.record(
        table.name, .delete, count: deleted, sample: "\(deleted) rows of accounts or contacts gone")
    }
    return deleted
  }

  /// Owners still live whose rows lost a contact deleted outright: examined again by every job
  /// that keeps state about their book.
  private func reexamine(_ owners: Set<UserID>) throws {
    guard !owners.isEmpty else { return }
    var live = Set<UserID>()
    try sql.forEachInBatch(
      AccountID.self,
      "SELECT id FROM users WHERE id IN (\(SQLDialect.list(owners.sorted()))) AND deleted_at IS NULL"
    ) { live.insert($0.id) }
    guard !live.isEmpty else { return }
    for job in [JobName.circlePatterns, .enrichmentFetch] { try tx.queueOwnersFoundByPass(job: job, live) }
    try tx.forgetScoreTallies(of: live.sorted())
  }

  /// Links of other books to up to `limit` accounts gone or deleted at or before `deletedBy`
  /// (`contacts.rin_user_id`, a column of ours; the accounts' ids read from its partial index),
  /// undone as an account's erasure undoes them (`unlinkFromOtherBooks`). Returns how many
  /// accounts.
  public func unlinkAccountsGone(deletedBy: UTCInstant, limit: Int) throws -> Int {
    var accounts: [UserID] = []
    try sql.forEachInBatch(
      AccountID.self,
      """
      SELECT DISTINCT c.rin_user_id AS id FROM contacts c WHERE c.rin_user_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM users u WHERE u.id = c.rin_user_id AND (u.deleted_at IS NULL OR u.deleted_at > \(deletedBy)))
      LIMIT \(.integer(Int64(limit)))
      """
    ) { accounts.append($0.id) }
    guard !accounts.isEmpty else { return 0 }
    let unlinked = try unlinkFromOtherBooks(accounts)
    changes.record(
      "contacts", .update, count: unlinked["contacts"] ?? 0,
      sample: "links to \(accounts.count) accounts gone")
    return accounts.count
  }

  /// Contacts of other books still linked to an account gone or deleted at or before
  /// `deletedBy`.
  public func countLinksToAccountsGone(deletedBy: UTCInstant) throws -> Int64 {
    Int64(
      try sql.count(
        """
        SELECT count(*) AS count FROM contacts c WHERE c.rin_user_id IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM users u WHERE u.id = c.rin_user_id AND (u.deleted_at IS NULL OR u.deleted_at > \(deletedBy)))
        """))
  }

  /// Deletes up to `limit` supersession times whose suggestion is gone (it went with its
  /// account: the time is kept by suggestion id, not by owner); returns how many.
  public func deleteOrphanedSupersessions(limit: Int) throws -> Int {
    let deleted = try sql.execute(
      """
      DELETE FROM circle_suggestion_supersessions WHERE suggestion_id IN (
        SELECT t.suggestion_id FROM circle_suggestion_supersessions t
        WHERE NOT EXISTS (SELECT 1 FROM circle_suggestions s WHERE s.id = t.suggestion_id)
        LIMIT \(.integer(Int64(limit))))
      """)
    changes.record(
      "circle_suggestion_supersessions", .delete, count: deleted, sample: "\(deleted) of suggestions gone")
    return deleted
  }

  /// How many of `table`'s rows name an account or a contact gone, or deleted at or before
  /// `deletedBy`. Reads the whole table.
  public func countLingering(in table: ErasableTable, deletedBy: UTCInstant) throws -> Int64 {
    var conditions: [SQLFragment] = []
    if table.namesAccounts { conditions.append(accountGone(deletedBy)) }
    if table.namesContacts { conditions.append(contactGone(deletedBy)) }
    guard let first = conditions.first else { return 0 }
    let either: SQLFragment = conditions.count == 1 ? first : "(\(first)) OR (\(conditions[1]))"
    return Int64(
      try sql.count(
        "SELECT count(*) AS count FROM \(literal: SQLDialect.quoted(table.name)) t WHERE \(either)"))
  }

  /// The row's `user_id` is no account that was live after `deletedBy`.
  private func accountGone(_ deletedBy: UTCInstant) -> SQLFragment {
    """
    NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND (u.deleted_at IS NULL OR u.deleted_at > \(deletedBy)))
    """
  }

  /// The row's `contact_id` is no contact that, with its owner's account, was live after
  /// `deletedBy`.
  private func contactGone(_ deletedBy: UTCInstant) -> SQLFragment {
    """
    NOT EXISTS (SELECT 1 FROM contacts c JOIN users u ON u.id = c.user_id WHERE c.id = t.contact_id
      AND (c.deleted_at IS NULL OR c.deleted_at > \(deletedBy)) AND (u.deleted_at IS NULL OR u.deleted_at > \(deletedBy)))
    """
  }
}

extension Storage {
  /// `rinjobs erasure`: for every table of ours, how many rows still name an account or a
  /// contact gone or deleted at or before `deletedBy`; tables with none are listed with 0.
  /// Read-only; each table is read whole (docs/OPERATIONS.md "Erasure").
  public func lingeringRows(deletedBy: UTCInstant) throws -> [(table: String, rows: Int64)] {
    try read { tx in
      let tables = try tx.erasure.erasableTables().map { table in
        (table: table.name, rows: try tx.erasure.countLingering(in: table, deletedBy: deletedBy))
      }
      // The one column of ours on a services' table that names an account.
      return tables + [
        ("contacts.rin_user_id", try tx.erasure.countLinksToAccountsGone(deletedBy: deletedBy))
      ]
    }
  }
}

/// A row of one of our tables naming a contact deleted outright, and its owner where the table
/// names one.
private struct LingeringContactRow: DecodableRow {
  enum Columns: Int, RowColumns { case contactID, userID }
  static let table = "a table of ours"
  let contactID: ContactID?
  let userID: UserID?

  init(_ row: RowDecoder<Columns>) throws {
    contactID = try row.integerIfPresent(.contactID)
    userID = try row.integerIfPresent(.userID)
  }
}

private struct AccountID: DecodableRow {
  enum Columns: Int, RowColumns { case id }
  static let table = "users"
  let id: UserID

  init(_ row: RowDecoder<Columns>) throws { id = try row.integer(.id) }
}
