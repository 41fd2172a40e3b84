import RinDomain

/// Rows of ours that outlived their account or contact: the sweep that deletes them (hard
/// deletes, and deletions no stamp showed) and the read-only check that counts them
/// (`rinjobs erasure`). One predicate for both, so that what the check reports is what the
/// sweep deletes.
extension ErasureQueries {
  /// Deletes up to `limit` rows' worth of `table`'s rows whose account or contact is gone or
  /// deleted at or before `deletedBy`: the rows of up to `limit` such owners or contacts.
  /// Returns how many rows left. Reads the whole table: the sweep runs once a period.
  public func deleteLingering(in table: ErasableTable, deletedBy: UTCInstant, limit: Int) throws -> Int {
    let name = SQLDialect.quoted(table.name)
    var deleted = 0
    for column in ["user_id", "contact_id"]
    where column == "user_id" ? table.namesAccounts : table.namesContacts {
      let condition = column == "user_id" ? accountGone(deletedBy) : contactGone(deletedBy)
      deleted += try sql.execute(
        """
        DELETE FROM \(literal: name) WHERE \(literal: column) IN (
          SELECT t.\(literal: column) FROM \(literal: name) t WHERE \(condition) LIMIT \(.integer(Int64(limit))))
        """)
    }
    if deleted > 0 {
      changes.record(
        table.name, .delete, count: deleted, sample: "\(deleted) rows of accounts or contacts gone")
    }
    return deleted
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
    return try sql.fetchInt(
      "SELECT count(*) FROM \(literal: SQLDialect.quoted(table.name)) t WHERE \(either)") ?? 0
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
      try tx.erasure.erasableTables().map { table in
        (table.name, try tx.erasure.countLingering(in: table, deletedBy: deletedBy))
      }
    }
  }
}
