/// The `kind` of an outbox row, the names the delivery service reads (docs/CONTRACT.md §2,
/// notifications): one per job that notifies, each the prefix of its dedupe keys.
public enum NotificationKind: String, Sendable, CaseIterable, Codable {
  case scoreUpdated = "score_updated"
  case contactEnrichment = "contact_enrichment"
  case reminderDue = "reminder_due"
  case badge
}
