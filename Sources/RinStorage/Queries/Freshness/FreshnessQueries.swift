import RinDomain

/// `rinjobs freshness`' statements (docs/OPERATIONS.md "Freshness"): reached as `tx.freshness`.
/// Each reads an output's newest rows per user, or the per-user state a job keeps, through keys
/// led by the user's id; none reads a contact.
public struct FreshnessQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// The freshness check's statements.
  public var freshness: FreshnessQueries { FreshnessQueries(tx: self) }
}

/// One user a freshness query found stale, or a candidate for a rule to judge.
public struct FreshnessCandidate: Sendable, Equatable {
  public var userID: UserID
  public var createdAt: UTCInstant
  /// The output's own instant: the newest snapshot's `computed_at`, the badges' `computed_at`,
  /// the examination's `examined_at`; nil when the user has none.
  public var computedAt: UTCInstant?
  /// enrichment-fetch's `due_at`.
  public var dueAt: UTCInstant?
  /// `users.timezone`, for upcoming.
  public var zone: String?
  /// `upcoming_owner_states.today`.
  public var today: CalendarDate?
}

extension FreshnessQueries {
  /// Live users created at or before `createdBy`, counted by shard (`id mod shardCount`; one
  /// count under 0 without shards): the users an output promises a result to.
  public func promisedUsers(createdBy: UTCInstant, shardCount: Int?) throws -> [Int: Int] {
    var counts: [Int: Int] = [:]
    try sql.forEachInBatch(
      ShardCount.self,
      """
      SELECT id % \(Int64(shardCount ?? 1)) AS shard, count(*) AS count FROM users
      WHERE deleted_at IS NULL AND created_at <= \(createdBy) GROUP BY 1
      """
    ) { counts[$0.shard, default: 0] += $0.count }
    return counts
  }

  private static let promised: SQLFragment = "u.deleted_at IS NULL AND u.created_at <= "

  /// Users with no snapshot for a day on or after `cutoffDay` computed after `cutoff`, in id
  /// order, each with the `computed_at` of their newest snapshot (by `as_of`, so that a
  /// backfill of an old day does not make a user look fresh). One probe of the snapshots' key
  /// per user (on PostgreSQL into the newest partitions only); the newest is read for the stale
  /// ones alone.
  public func staleScoreUsers(
    createdBy: UTCInstant, cutoff: UTCInstant, cutoffDay: CalendarDate,
    _ body: (FreshnessCandidate) throws -> Void
  ) throws {
    try sql.forEach(
      CandidateRow.self,
      """
      SELECT u.id AS user_id, u.created_at,
        (SELECT s.computed_at FROM score_snapshots s WHERE s.user_id = u.id ORDER BY s.as_of DESC LIMIT 1)
          AS computed_at
      FROM users u
      WHERE \(Self.promised)\(createdBy) AND NOT EXISTS (
        SELECT 1 FROM score_snapshots s
        WHERE s.user_id = u.id AND s.as_of >= \(cutoffDay) AND s.computed_at > \(cutoff))
      ORDER BY u.id
      """
    ) { try $0.candidate.map(body) }
  }

  /// Users with no `badge_counts` row, in id order; every promised user when `everyUser` (a
  /// shard whose badge-recount change watermark is old or missing makes all its users
  /// candidates), each with their row's `computed_at` (nil: no row). Judged by
  /// `FreshnessRules.badges`.
  public func badgeCandidates(
    createdBy: UTCInstant, everyUser: Bool, _ body: (FreshnessCandidate) throws -> Void
  ) throws {
    // Covered by fresh marks, the check reads only the users never counted: one probe of the
    // counts' key per user, and a row for the few it finds.
    let filter: SQLFragment =
      everyUser ? "" : "AND NOT EXISTS (SELECT 1 FROM badge_counts c WHERE c.user_id = u.id)"
    try sql.forEach(
      CandidateRow.self,
      """
      SELECT u.id AS user_id, u.created_at, b.computed_at
      FROM users u LEFT JOIN badge_counts b ON b.user_id = u.id
      WHERE \(Self.promised)\(createdBy) \(filter)
      ORDER BY u.id
      """
    ) { try $0.candidate.map(body) }
  }

  /// Users whose upcoming-birthdays state is missing or for a date before `before` (the latest
  /// date any zone shows at the cutoff), in id order, with their zone: `FreshnessRules.upcoming`
  /// judges each in its own zone.
  public func upcomingCandidates(
    createdBy: UTCInstant, before: CalendarDate, _ body: (FreshnessCandidate) throws -> Void
  ) throws {
    try sql.forEach(
      UpcomingCandidateRow.self,
      """
      SELECT u.id AS user_id, u.created_at, u.timezone, s.today
      FROM users u LEFT JOIN upcoming_owner_states s ON s.user_id = u.id
      WHERE \(Self.promised)\(createdBy) AND (s.today IS NULL OR s.today < \(before))
      ORDER BY u.id
      """
    ) { try $0.candidate.map(body) }
  }

  /// Users of `job`'s examinations (`owner_examinations`) with none, one at or before
  /// `examinedBy`, or a `due_at` at or before `dueBy`, in id order; every promised user when
  /// `everyUser` (a shard whose change watermark is old makes all its users candidates).
  public func examinationCandidates(
    job: JobName, createdBy: UTCInstant, examinedBy: UTCInstant, dueBy: UTCInstant, everyUser: Bool,
    _ body: (FreshnessCandidate) throws -> Void
  ) throws {
    let filter: SQLFragment =
      everyUser
      ? "" : "AND (e.examined_at IS NULL OR e.examined_at <= \(examinedBy) OR e.due_at <= \(dueBy))"
    try sql.forEach(
      ExaminationCandidateRow.self,
      """
      SELECT u.id AS user_id, u.created_at, e.examined_at AS computed_at, e.due_at
      FROM users u LEFT JOIN owner_examinations e ON e.job = \(.text(job.rawValue)) AND e.user_id = u.id
      WHERE \(Self.promised)\(createdBy) \(filter)
      ORDER BY u.id
      """
    ) { try $0.candidate.map(body) }
  }

  /// `job`'s change watermarks by scope (`all`, `K/N`): how far it checked every owner of each.
  public func changeWatermarks(job: JobName) throws -> [(scope: String, verifiedThrough: UTCInstant)] {
    var marks: [(scope: String, verifiedThrough: UTCInstant)] = []
    try sql.forEachInBatch(
      WatermarkRow.self,
      "SELECT \(columns: WatermarkRow.Columns.self) FROM change_watermarks WHERE job = \(.text(job.rawValue)) ORDER BY scope"
    ) { marks.append(($0.scope, $0.verifiedThrough)) }
    return marks
  }
}

private struct ShardCount: DecodableRow {
  enum Columns: Int, RowColumns { case shard, count }
  static let table = "users"
  let shard: Int
  let count: Int

  init(_ row: RowDecoder<Columns>) throws {
    shard = try row.count(.shard)
    count = try row.count(.count)
  }
}

/// A promised user and when the output last covered them; nil for a user whose creation time
/// the services left unreadable (no promise can be dated from it).
private struct CandidateRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, createdAt, computedAt }
  static let table = "users"
  let candidate: FreshnessCandidate?

  init(_ row: RowDecoder<Columns>) throws {
    candidate = row.instantIfValid(.createdAt).map {
      FreshnessCandidate(userID: row.key(.userID), createdAt: $0, computedAt: row.instantIfValid(.computedAt))
    }
  }
}

private struct UpcomingCandidateRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, createdAt, timezone, today }
  static let table = "users"
  let candidate: FreshnessCandidate?

  init(_ row: RowDecoder<Columns>) throws {
    candidate = row.instantIfValid(.createdAt).map {
      var candidate = FreshnessCandidate(userID: row.key(.userID), createdAt: $0, computedAt: nil)
      candidate.zone = row.textIfPresent(.timezone)
      candidate.today = row.textIfPresent(.today).flatMap(CalendarDate.init)
      return candidate
    }
  }
}

private struct ExaminationCandidateRow: DecodableRow {
  enum Columns: Int, RowColumns { case userID, createdAt, computedAt, dueAt }
  static let table = "users"
  let candidate: FreshnessCandidate?

  init(_ row: RowDecoder<Columns>) throws {
    candidate = row.instantIfValid(.createdAt).map {
      var candidate = FreshnessCandidate(
        userID: row.key(.userID), createdAt: $0, computedAt: row.instantIfValid(.computedAt))
      candidate.dueAt = row.instantIfValid(.dueAt)
      return candidate
    }
  }
}

private struct WatermarkRow: DecodableRow {
  enum Columns: Int, RowColumns { case scope, verifiedThrough }
  static let table = "change_watermarks"
  let scope: String
  let verifiedThrough: UTCInstant

  init(_ row: RowDecoder<Columns>) throws {
    scope = try row.text(.scope)
    verifiedThrough = try row.instant(.verifiedThrough)
  }
}
