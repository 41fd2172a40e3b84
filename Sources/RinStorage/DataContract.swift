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

extension DataContract {
  /// The services' own index of each input table, for `rinjobs footprint`'s `services` group
  /// (docs/OPERATIONS.md "Footprint"): the one index on the table's owner or parent column that
  /// the services would create for their own reads of a user's or a parent's rows, whoever
  /// created it (the first ones came with our migration "index the data contract for per-user
  /// batches"). Keys (primary key, unique constraints) are the services' too; every other index on
  /// an input table is ours (`our_indexes`): covering, stamp, birthday, mutual-check, retention and
  /// lookup indexes the jobs added.
  ///
  /// - `users`, `invite_links`, `invite_clicks`, `attributions`, `user_state`: the key alone
  ///   (`users_by_phone` is enrichment-fetch's lookup of verified numbers, `invite_clicks_by_time`
  ///   attribution-expiry's: ours).
  /// - `contact_phones`, `contact_emails`: the plain index on `contact_id`. A SQLite file whose
  ///   migration to it is pending holds a covering one of ours in its place (`…_with_raw`,
  ///   `…_with_address`), which counts as ours. On PostgreSQL the plain index has the covering
  ///   one's name (`servicesIndexesOnPostgres`).
  /// - `circle_members`, `circle_removals`: a covering index of ours replaces the plain one
  ///   (`…_with_added_at`, `…_with_removed_at`) and counts as ours whole; a database still
  ///   holding the plain one (PostgreSQL before `rinjobs migrate` drops it) counts it here.
  ///   `circle_members_by_contact`, a second index by the other column that our first index
  ///   migration makes, is ours wherever it is left (a later step drops it: no read of ours
  ///   uses it).
  public static let servicesIndexes: [String: String] = [
    "contacts": "contacts_by_user",
    "contact_phones": "contact_phones_by_contact",
    "contact_emails": "contact_emails_by_contact",
    "circles": "circles_by_user",
    "circle_members": "circle_members_by_circle",
    "circle_removals": "circle_removals_by_circle",
    "merge_suggestions": "merge_suggestions_by_user",
    "sync_conflicts": "sync_conflicts_by_user",
    "access_requests": "access_requests_by_circle",
    "security_items": "security_items_by_user",
    "reminders": "reminders_by_user",
    "invite_shares": "invite_shares_by_inviter",
  ]

  /// On PostgreSQL the "covering" channel indexes are plain ones on `contact_id` (a btree entry
  /// cannot hold a long free-text value, `PostgresSchema.ddl`): the plain index came back under
  /// another name, and is the services' there.
  public static let servicesIndexesOnPostgres: [String: String] = [
    "contact_phones": "contact_phones_by_contact_with_raw",
    "contact_emails": "contact_emails_by_contact_with_address",
  ]

  /// `enrichment_lookups`: the provider's answers, kept until they expire (`cache`, not `outputs`).
  public static let cacheTables = ["enrichment_lookups"]
}
