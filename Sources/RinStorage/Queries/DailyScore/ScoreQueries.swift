import RinDomain

/// A user as daily-score reads them.
public struct ScoreUserRow: Sendable, Equatable {
  public var id: Int64
  public var createdAt: UTCInstant
  public var phoneVerified: Bool
}

/// A `score_snapshots` row.
public struct ScoreSnapshotRow: Sendable, Equatable {
  public var userID: Int64
  public var asOf: CalendarDate
  public var score: Int
  public var quality: Double?
  public var position: Double?
  public var stability: Double?
  public var trust: Double?
  public var tier: String
  public var delta: Int?
  public var formulaVersion: String

  public init(
    userID: Int64, asOf: CalendarDate, score: Int, quality: Double?, position: Double?, stability: Double?,
    trust: Double?, tier: String, delta: Int?, formulaVersion: String
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
  }
}

/// What the milestone rule needs from `user_state` and `invite_shares`.
public struct InvitePromptState: Sendable, Equatable {
  public var promptsShown = 0
  public var lastPromptAt: UTCInstant?
  public var lastDismissedAt: UTCInstant?
  public var lastShareAt: UTCInstant?
  public init() {}
}

extension DailyScoreQueries {
  public func scoreUsers(_ ids: [Int64]) throws -> [ScoreUserRow] {
    var users: [ScoreUserRow] = []
    let owners = OwnerSet(ids)
    try sql.forEachBatchRow(
      "SELECT id, created_at, phone_verified FROM users WHERE \(owners.condition(on: "id")) ORDER BY id"
    ) { row in
      guard let id = row.int64(0), owners.includes(id) else { return }
      users.append(ScoreUserRow(id: id, createdAt: row.instant(1) ?? 0, phoneVerified: row.int64(2) == 1))
    }
    return users
  }

  /// Live custom circles with at least one live member, per user.
  public func customCircleCounts(of ids: [Int64], end: UTCInstant) throws -> [Int64: Int] {
    var counts: [Int64: Int] = [:]
    let owners = OwnerSet(ids)
    let query: SQLFragment = """
      SELECT k.user_id, count(*) FROM circles k
      WHERE \(owners.condition(on: "k.user_id")) AND k.kind = 'custom'
        AND k.created_at < \(end) AND (k.deleted_at IS NULL OR k.deleted_at >= \(end))
        AND EXISTS (SELECT 1 FROM circle_members m JOIN contacts c ON c.id = m.contact_id
          WHERE m.circle_id = k.id AND (m.added_at IS NULL OR m.added_at < \(end))
            AND c.created_at < \(end) AND (c.deleted_at IS NULL OR c.deleted_at >= \(end)))
      GROUP BY k.user_id
      """
    try sql.forEachBatchRow(query) { row in
      if let user = row.int64(0), owners.includes(user) { counts[user] = Int(row.int64(1) ?? 0) }
    }
    return counts
  }

  /// Confidences of pending merge suggestions created before `end`, per user.
  public func pendingMergeConfidences(of ids: [Int64], createdBefore end: UTCInstant) throws -> [Int64:
    [Double?]]
  {
    var result: [Int64: [Double?]] = [:]
    let owners = OwnerSet(ids)
    try sql.forEachBatchRow(
      "SELECT user_id, confidence FROM merge_suggestions WHERE \(owners.condition(on: "user_id")) AND status = 'pending' AND created_at < \(.instant(end))"
    ) { row in
      if let user = row.int64(0), owners.includes(user) { result[user, default: []].append(row.double(1)) }
    }
    return result
  }

  public func openSecurityItemCounts(of ids: [Int64], createdBefore end: UTCInstant) throws -> [Int64: Int] {
    var counts: [Int64: Int] = [:]
    let owners = OwnerSet(ids)
    try sql.forEachBatchRow(
      "SELECT user_id, count(*) FROM security_items WHERE \(owners.condition(on: "user_id")) AND status = 'open' AND created_at < \(.instant(end)) GROUP BY user_id"
    ) { row in
      if let user = row.int64(0), owners.includes(user) { counts[user] = Int(row.int64(1) ?? 0) }
    }
    return counts
  }
}
