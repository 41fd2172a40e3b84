/// Table names of docs/CONTRACT.md §2, for summaries, dry-run reports and tests.
public enum DataContract {
  public static let inputTables = [
    "users", "contacts", "contact_phones", "contact_emails", "circles", "circle_members",
    "circle_removals", "merge_suggestions", "sync_conflicts", "access_requests", "security_items",
    "reminders", "invite_links", "invite_shares", "invite_clicks", "attributions", "user_state",
  ]
  public static let outputTables = [
    "score_snapshots", "circle_suggestions", "contact_enrichments", "enrichment_lookups",
    "upcoming_events", "badge_counts", "invite_prompt_queue", "notification_outbox",
  ]
  public static var allTables: [String] { inputTables + outputTables }
}
