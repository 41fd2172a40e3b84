/// Renumbering a seeded database's contacts into creation order (`rinjobs seed`, docs/CONTRACT.md §6).
extension StorageTransaction {
  /// Hands every contact id out again in the order the contacts were created (`created_at`,
  /// then the generated id), as Rin's online services do, and rewrites every row that refers
  /// to a contact. Phones, emails, memberships and removals are written again in their
  /// contact's new order, as rows added with their contact lie in production; rows with ids of
  /// their own (merge suggestions, conflicts, reminders) keep their place and take the new id.
  /// Same rows, same content on both backends: only the numbering changes.
  public func renumberContactsInCreationOrder() throws {
    try sql.execute(
      """
      CREATE TEMP TABLE contact_renumbering AS
      SELECT id AS old_id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS new_id FROM contacts
      """)
    try sql.execute("CREATE UNIQUE INDEX contact_renumbering_by_old ON contact_renumbering (old_id)")
    for table in Self.rewrittenInContactOrder { try rewrite(table) }
    for (table, column) in Self.updatedInPlace {
      try sql.execute(
        """
        UPDATE \(literal: table) SET \(literal: column) = (
          SELECT r.new_id FROM contact_renumbering r WHERE r.old_id = \(literal: table).\(literal: column))
        """)
    }
    try sql.execute("DROP TABLE contact_renumbering")
  }

  /// A table written again, with its contact column(s) renumbered, in `order`.
  private struct ContactTable {
    let name: String
    let columns: [String]
    let contactColumn: String
    let order: String
  }

  private static let rewrittenInContactOrder = [
    ContactTable(
      name: "contacts",
      columns: [
        "id", "user_id", "given_name", "family_name", "display_name", "company", "title", "birthday",
        "source", "rin_user_id", "edited_fields", "created_at", "updated_at", "deleted_at",
      ], contactColumn: "id", order: "id"),
    ContactTable(
      name: "contact_phones", columns: ["contact_id", "raw", "label"], contactColumn: "contact_id",
      order: "contact_id, raw, label"),
    ContactTable(
      name: "contact_emails", columns: ["contact_id", "address", "label"], contactColumn: "contact_id",
      order: "contact_id, address, label"),
    ContactTable(
      name: "circle_members", columns: ["circle_id", "contact_id", "added_at"], contactColumn: "contact_id",
      order: "contact_id, circle_id"),
    ContactTable(
      name: "circle_removals", columns: ["circle_id", "contact_id", "removed_at"],
      contactColumn: "contact_id", order: "contact_id, circle_id"),
  ]

  private static let updatedInPlace = [
    ("merge_suggestions", "contact_a"), ("merge_suggestions", "contact_b"), ("sync_conflicts", "contact_id"),
    ("reminders", "contact_id"),
  ]

  private func rewrite(_ table: ContactTable) throws {
    let list = table.columns.joined(separator: ", ")
    let renumbered = table.columns.map { $0 == table.contactColumn ? "r.new_id AS \($0)" : "t.\($0)" }
    try sql.execute(
      """
      CREATE TEMP TABLE contact_rows_renumbered AS
      SELECT \(literal: renumbered.joined(separator: ", "))
      FROM \(literal: table.name) t JOIN contact_renumbering r ON r.old_id = t.\(literal: table.contactColumn)
      """)
    try sql.execute("DELETE FROM \(literal: table.name)")
    try sql.execute(
      "INSERT INTO \(literal: table.name) (\(literal: list)) SELECT \(literal: list) FROM contact_rows_renumbered ORDER BY \(literal: table.order)"
    )
    try sql.execute("DROP TABLE contact_rows_renumbered")
  }
}
