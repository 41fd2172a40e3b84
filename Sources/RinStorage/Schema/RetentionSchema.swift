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
}
