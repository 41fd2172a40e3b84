/// What history-retention needs to find old rows without reading every row (docs/OPERATIONS.md
/// "Retention"): a night's deletes cost the rows they delete, not the size of the table.
enum RetentionSchema {
  /// When circle-patterns superseded each suggestion (`circle_suggestions` keeps only the
  /// status): the window runs from then. Suggestions superseded before this table existed
  /// count as superseded when it was made, so that none is deleted sooner than the window.
  static let suggestionSupersessions = """
    CREATE TABLE circle_suggestion_supersessions (
      suggestion_id INTEGER PRIMARY KEY, superseded_at INTEGER NOT NULL);
    CREATE INDEX circle_suggestion_supersessions_by_time ON circle_suggestion_supersessions(superseded_at);
    INSERT INTO circle_suggestion_supersessions (suggestion_id, superseded_at)
      SELECT id, CAST(strftime('%s', 'now') AS INTEGER) FROM circle_suggestions WHERE status = 'superseded';
    """

  static let suggestionSupersessionsOnPostgres = """
    CREATE TABLE circle_suggestion_supersessions (
      suggestion_id BIGINT PRIMARY KEY, superseded_at BIGINT NOT NULL);
    CREATE INDEX circle_suggestion_supersessions_by_time ON circle_suggestion_supersessions(superseded_at);
    INSERT INTO circle_suggestion_supersessions (suggestion_id, superseded_at)
      SELECT id, extract(epoch FROM now())::bigint FROM circle_suggestions WHERE status = 'superseded';
    """

  /// The first day each user's score reached the milestone (`MilestoneRule.threshold`, 60), kept
  /// for good: history-retention deletes old snapshots, and the prompt is for the first time
  /// ever (docs/CONTRACT.md §3.1). `first_reached_on` is an `as_of`, in `score_snapshots`' form
  /// (`YYYY-MM-DD` text). Filled from the snapshots there are when it is made; 60 is written
  /// out, since a released migration never changes.
  static let scoreMilestones = """
    CREATE TABLE score_milestones (user_id INTEGER PRIMARY KEY, first_reached_on TEXT NOT NULL);
    INSERT INTO score_milestones (user_id, first_reached_on)
      SELECT user_id, min(as_of) FROM score_snapshots WHERE score >= 60 GROUP BY user_id;
    """

  /// Snapshots by day: the oldest days are the first entries.
  static let scoreSnapshotsByDay = """
    CREATE INDEX score_snapshots_by_day ON score_snapshots(as_of);
    """

  /// Sent notifications by when they were sent, the oldest first; unsent ones are not in it.
  static let sentNotificationsBySentAt = """
    CREATE INDEX notification_outbox_sent_by_time ON notification_outbox(sent_at) WHERE sent_at IS NOT NULL;
    """

  /// Unsent notifications by when they were queued: the count of those waiting over a day reads
  /// only the unsent ones (few, while the delivery service works).
  static let unsentNotificationsByCreatedAt = """
    CREATE INDEX notification_outbox_unsent_by_time ON notification_outbox(created_at) WHERE sent_at IS NULL;
    """

  /// How far history-retention's sweep of the lookup cache for expired answers has gone
  /// (`LookupCacheSweep`): the job-clock instant whose position it reached. One row.
  static let lookupCacheSweep = """
    CREATE TABLE lookup_cache_sweeps (
      cache TEXT PRIMARY KEY, swept_until INTEGER NOT NULL);
    """
}
