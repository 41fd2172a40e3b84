import RinDomain

/// A night's changed owners, found once per run from the stamp indexes (`ChangeWatermark`):
/// the pass reads the entries stamped after the mark, about as many as the day's changes, and
/// keeps the owners in `changed_owners` on the server; each batch then reads back its own.
extension StorageTransaction {
  /// The mark of `job` for `scope` (`all` or `INDEX/COUNT`), if a run left one.
  public func changeWatermark(job: JobName, scope: String) throws -> ChangeWatermark? {
    var mark: ChangeWatermark?
    try sql.forEachInBatch(
      WatermarkRow.self,
      "SELECT \(columns: WatermarkRow.Columns.self) FROM change_watermarks WHERE job = \(.text(job.rawValue)) AND scope = \(.text(scope))"
    ) { mark = $0.mark }
    return mark
  }

  public func putChangeWatermark(_ mark: ChangeWatermark, job: JobName, scope: String) throws {
    try sql.execute(
      """
      INSERT INTO change_watermarks (job, scope, verified_through, window_end) VALUES (\(.text(job.rawValue)), \(.text(scope)), \(.instant(mark.verifiedThrough)), \(.instant(mark.windowEnd)))
      ON CONFLICT (job, scope) DO UPDATE SET verified_through = excluded.verified_through,
        window_end = excluded.window_end
      """)
  }

  /// Replaces `job`'s changed owners of `scope` by the owners of `selection`'s shard with a row
  /// stamped after `since` that daily-score counts: a contact created, edited or deleted; a
  /// contact pointing to them (*mutual*) or a Rin user their contacts point to (*rin*) created
  /// or deleted (an edit of either changes neither count); a circle created or deleted; a member
  /// added or taken out. Every branch is a range over a stamp index. Returns the number of owners
  /// found.
  ///
  /// Each shard of a night runs this whole pass (it keeps only its owners at the end), so what
  /// it costs is paid once per shard. Two forms keep it to the day's stamps on PostgreSQL
  /// (BENCHMARKS.md "Session 24": 29 → 6 ms of server CPU a job at M): the day's contacts are
  /// read once, from `contacts_by_change`, for both their owners and the Rin users they point
  /// to (a second branch on `rin_user_id` was planned over the whole
  /// `contacts_by_rin_user_with_owner` index), and a member's circle is one probe of its key
  /// (a join hashed every circle).
  @discardableResult
  public func collectOwnersChanged(
    since: UTCInstant, job: JobName, scope: String, in selection: UserSelection
  ) throws -> Int {
    let dialect = sql.dialect
    return try replaceChangedOwners(
      job: job, scope: scope, in: selection,
      owners: """
        WITH changed_contacts AS (
          SELECT c.user_id, c.rin_user_id, c.created_at, c.deleted_at FROM contacts c
          WHERE \(literal: dialect.contactChangeStamp("c")) > \(since))
        SELECT user_id AS user_id FROM changed_contacts
        UNION SELECT rin_user_id FROM changed_contacts
          WHERE rin_user_id IS NOT NULL AND (created_at > \(since) OR deleted_at > \(since))
        UNION SELECT c.user_id FROM users r JOIN contacts c ON c.rin_user_id = r.id
          WHERE \(literal: dialect.createdOrDeletedStamp("r")) > \(since)
        UNION SELECT k.user_id FROM circles k WHERE \(literal: dialect.createdOrDeletedStamp("k")) > \(since)
        UNION SELECT (SELECT k.user_id FROM circles k WHERE k.id = m.circle_id) FROM circle_members m
          WHERE m.added_at > \(since)
        UNION SELECT (SELECT k.user_id FROM circles k WHERE k.id = r.circle_id) FROM circle_removals r
          WHERE r.removed_at > \(since)
        """)
  }

  /// Replaces `job`'s changed owners of `scope` by the `user_id`s that `owners` (a query)
  /// selects, kept to `selection`'s shard; returns how many were kept.
  /// Every job's pass over the stamps goes through here.
  package func replaceChangedOwners(
    job: JobName, scope: String, in selection: UserSelection, owners: SQLFragment
  ) throws -> Int {
    // The run fills and empties this table: its statements are planned afresh each time.
    try sql.executeReplanned(
      "DELETE FROM changed_owners WHERE job = \(.text(job.rawValue)) AND scope = \(.text(scope))")
    let shardCondition: SQLFragment =
      selection.shard.part.map { " AND x.user_id % \($0.count) = \($0.index)" } ?? ""
    return try sql.execute(
      """
      INSERT INTO changed_owners (job, scope, user_id)
      SELECT DISTINCT \(.text(job.rawValue)), \(.text(scope)), x.user_id FROM (\(owners)) x
      WHERE x.user_id IS NOT NULL\(shardCondition)
      """)
  }

  /// Which of `userIDs` the run's pass found changed (`collectOwnersChanged`).
  public func ownersChanged(among userIDs: [UserID], job: JobName, scope: String) throws -> Set<UserID> {
    guard !userIDs.isEmpty else { return [] }
    var changed = Set<UserID>()
    let owners = OwnerSet(userIDs)
    try sql.forEachInBatchReplanned(
      OwnerRow.self,
      """
      SELECT user_id FROM changed_owners
      WHERE job = \(.text(job.rawValue)) AND scope = \(.text(scope)) AND \(owners.condition(on: "user_id"))
      """
    ) { row in
      if owners.includes(row.userID) { changed.insert(row.userID) }
    }
    return changed
  }
}

private struct WatermarkRow: DecodableRow {
  enum Columns: Int, RowColumns { case verifiedThrough, windowEnd }
  static let table = "change_watermarks"
  let mark: ChangeWatermark

  init(_ row: RowDecoder<Columns>) throws {
    mark = ChangeWatermark(
      verifiedThrough: try row.instant(.verifiedThrough), windowEnd: try row.instant(.windowEnd))
  }
}
