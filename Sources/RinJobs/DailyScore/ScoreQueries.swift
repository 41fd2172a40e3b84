import RinDomain
import RinStorage

/// daily-score's statements, on one batch's transaction.
struct DailyScoreQueries {
  let tx: StorageTransaction
  var sql: TransactionSQL { tx.sql }
}

/// A user as daily-score reads them.
struct ScoreUserRow: DecodableRow, Sendable, Equatable {
  enum Columns: Int, RowColumns { case id, createdAt, phoneVerified }
  static let table = "users"
  var id: UserID
  var createdAt: UTCInstant
  var phoneVerified: Bool

  init(_ row: RowDecoder<Columns>) throws {
    id = row.key(.id)
    // An unreadable creation time reads as the epoch: the account counts as long-standing.
    createdAt = row.instantIfValid(.createdAt) ?? UTCInstant(seconds: 0)
    phoneVerified = row.integerIfValid(.phoneVerified) == 1
  }
}

/// A `score_snapshots` row.
struct ScoreSnapshotRow: DecodableRow, EncodableRow, Sendable, Equatable {
  enum Columns: Int, RowColumns {
    case userID, asOf, score, quality, position, stability, trust, tier, delta, formulaVersion, computedAt
  }
  static let table = "score_snapshots"
  var userID: UserID
  var asOf: CalendarDate
  var score: Int
  var quality: Double?
  var position: Double?
  var stability: Double?
  var trust: Double?
  var tier: Tier
  var delta: Int?
  var formulaVersion: String
  /// When a run wrote it; not compared: a rerun that computes the same row rewrites nothing.
  var computedAt: UTCInstant

  init(
    userID: UserID, asOf: CalendarDate, score: Int, quality: Double?, position: Double?, stability: Double?,
    trust: Double?, tier: Tier, delta: Int?, formulaVersion: String, computedAt: UTCInstant
  ) {
    self.userID = userID
    self.asOf = asOf
    self.score = score
    self.quality = quality
    self.position = position
    self.stability = stability
    self.trust = trust
    self.tier = tier
    self.delta = delta
    self.formulaVersion = formulaVersion
    self.computedAt = computedAt
  }

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    asOf = try row.date(.asOf)
    score = try row.count(.score)
    quality = try row.doubleIfPresent(.quality)
    position = try row.doubleIfPresent(.position)
    stability = try row.doubleIfPresent(.stability)
    trust = try row.doubleIfPresent(.trust)
    tier = try row.value(.tier, as: Tier.self)
    delta = try row.integerIfPresent(.delta).map { Int($0) }
    formulaVersion = try row.text(.formulaVersion)
    computedAt = try row.instant(.computedAt)
  }

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.asOf] = SQLValue(asOf)
    row[.score] = .integer(Int64(score))
    row[.quality] = SQLValue(quality)
    row[.position] = SQLValue(position)
    row[.stability] = SQLValue(stability)
    row[.trust] = SQLValue(trust)
    row[.tier] = .text(tier.rawValue)
    row[.delta] = SQLValue(delta)
    row[.formulaVersion] = .text(formulaVersion)
    row[.computedAt] = .instant(computedAt)
  }

  static func == (a: Self, b: Self) -> Bool {
    (a.userID, a.asOf, a.score, a.tier, a.delta, a.formulaVersion) == (
      b.userID, b.asOf, b.score, b.tier, b.delta, b.formulaVersion
    )
      && (a.quality, a.position, a.stability, a.trust) == (b.quality, b.position, b.stability, b.trust)
  }
}

/// What the milestone rule needs from `user_state` and `invite_shares`.
struct InvitePromptState: Sendable, Equatable {
  var promptsShown = 0
  var lastPromptAt: UTCInstant?
  var lastDismissedAt: UTCInstant?
  var lastShareAt: UTCInstant?
}

extension DailyScoreQueries {
  func scoreUsers(_ ids: [UserID]) throws -> [ScoreUserRow] {
    let owners = OwnerSet(ids)
    return try sql.rows(
      ScoreUserRow.self,
      "SELECT \(columns: ScoreUserRow.Columns.self) FROM users WHERE \(owners.condition(on: "id")) ORDER BY id"
    ).filter { owners.includes($0.id) }
  }

  /// Live custom circles with at least one live member, per user.
  func customCircleCounts(of ids: [UserID], end: UTCInstant) throws -> [UserID: Int] {
    let owners = OwnerSet(ids)
    return try counts(
      """
      SELECT k.user_id, count(*) AS count FROM circles k
      WHERE \(owners.condition(on: "k.user_id")) AND k.kind = 'custom'
        AND k.created_at < \(end) AND (k.deleted_at IS NULL OR k.deleted_at >= \(end))
        AND EXISTS (SELECT 1 FROM circle_members m JOIN contacts c ON c.id = m.contact_id
          WHERE m.circle_id = k.id AND (m.added_at IS NULL OR m.added_at < \(end))
            AND c.created_at < \(end) AND (c.deleted_at IS NULL OR c.deleted_at >= \(end)))
      GROUP BY k.user_id
      """, of: owners)
  }

  /// Confidences of pending merge suggestions created before `end`, per user; nil where the
  /// services' value is not a number (the rules count and skip it).
  func pendingMergeConfidences(of ids: [UserID], createdBefore end: UTCInstant) throws -> [UserID: [Double?]]
  {
    var result: [UserID: [Double?]] = [:]
    let owners = OwnerSet(ids)
    try sql.forEachInBatch(
      MergeConfidence.self,
      """
      SELECT \(columns: MergeConfidence.Columns.self) FROM merge_suggestions
      WHERE \(owners.condition(on: "user_id")) AND status = 'pending' AND created_at < \(.instant(end))
      """
    ) { row in
      if owners.includes(row.userID) { result[row.userID, default: []].append(row.confidence) }
    }
    return result
  }

  func openSecurityItemCounts(of ids: [UserID], createdBefore end: UTCInstant) throws -> [UserID: Int] {
    let owners = OwnerSet(ids)
    return try counts(
      """
      SELECT user_id, count(*) AS count FROM security_items
      WHERE \(owners.condition(on: "user_id")) AND status = 'open' AND created_at < \(.instant(end))
      GROUP BY user_id
      """, of: owners)
  }

  /// A count per owner, of the owners asked for (a range reads others too).
  private func counts(_ query: SQLFragment, of owners: OwnerSet) throws -> [UserID: Int] {
    var counts: [UserID: Int] = [:]
    try sql.forEachInBatch(OwnerCount.self, query) { row in
      if owners.includes(row.userID) { counts[row.userID] = row.count }
    }
    return counts
  }
}

private struct MergeConfidence: DecodableRow {
  enum Columns: Int, RowColumns { case userID, confidence }
  static let table = "merge_suggestions"
  let userID: UserID
  let confidence: Double?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    confidence = row.doubleIfValid(.confidence)
  }
}
