import RinDomain

/// What daily-score keeps between nights and other writers invalidate: a contact's score facts
/// (`score_contact_facts`) and an owner's tallies (`score_owner_tallies`). Writes the services'
/// stamps do not show (an enrichment, a link of a contact to a Rin user, an erased account) call
/// these, so that daily-score derives and counts them again.
extension StorageTransaction {
  /// A contact's enrichments changed: its stored score facts no longer hold.
  package func forgetScoreContactFacts(userID: UserID, contactIDs: [ContactID]) throws {
    guard !contactIDs.isEmpty else { return }
    _ = try sql.execute(
      "DELETE FROM score_contact_facts WHERE user_id = \(.integer(userID)) AND contact_id IN (\(SQLDialect.list(contactIDs)))"
    )
  }

  /// These owners' next night counts them again.
  package func forgetScoreTallies(of userIDs: [UserID]) throws {
    _ = try sql.execute(
      "DELETE FROM score_owner_tallies WHERE user_id IN (\(SQLDialect.list(userIDs)))")
  }
}
