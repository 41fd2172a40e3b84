extension Notifications {
  /// One per user per run that brought new enrichments. A rerun finds nothing new and queues
  /// nothing; a resumed run redoes only batches that rolled back (outbox row included), so the
  /// run id never repeats a notification while letting tomorrow's run notify again.
  public static func contactEnrichmentKey(user: UserID, runID: RunID) -> String {
    "\(NotificationKind.contactEnrichment.rawValue):\(user):\(runID)"
  }

  /// The contact when only one was enriched, else the Home tab's Enrichment Updates (docs/CONTRACT.md §2, notifications).
  public static func contactEnrichmentDeepLink(contactIDs: Set<ContactID>) -> String {
    if contactIDs.count == 1, let only = contactIDs.first { return "rin://contacts/\(only)" }
    return "rin://home?section=enrichment"
  }
}
