import RinConfiguration
import RinDomain
import RinStorage

/// What one freshness check found, output by output; `--json` prints it as
/// `{"now": …, "stale": N, "outputs": [{"name": "score", "max_age": "26h", "users": …, "stale": …,
/// "stale_users": [ids ascending], "oldest": "ISO 8601" or null, "by_shard": {"0/4": {…}}}]}`.
public struct FreshnessResult: Sendable, Encodable {
  public let now: UTCInstant
  public let shardCount: Int?
  public let tallies: [FreshnessTally]

  /// Stale users over every output (a user stale in two outputs counts twice).
  public var staleUsers: Int { tallies.reduce(0) { $0 + $1.stale } }

  public var exitCode: RinExitCode { staleUsers == 0 ? .success : .failure }

  /// The rows `--record` keeps: one per output and shard, and one for all shards (`all`).
  public var records: [FreshnessCheckRecord] {
    tallies.flatMap { tally in
      var rows = [
        FreshnessCheckRecord(
          checkedAt: now, output: tally.promise.output.rawValue, shard: "all", users: tally.users,
          stale: tally.stale, oldest: tally.oldest)
      ]
      if let count = shardCount {
        for (index, counts) in tally.byShard.sorted(by: { $0.key < $1.key }) {
          rows.append(
            FreshnessCheckRecord(
              checkedAt: now, output: tally.promise.output.rawValue, shard: "\(index)/\(count)",
              users: counts.users, stale: counts.stale, oldest: nil))
        }
      }
      return rows
    }
  }

  struct Output: Encodable {
    var name: String
    var maxAge: String
    var fullEvery: String?
    var users: Int
    var stale: Int
    var staleUsers: [UserID]
    var oldest: String?
    var byShard: [String: FreshnessTally.ShardCounts]?

    enum CodingKeys: String, CodingKey {
      case name, users, stale, oldest
      case maxAge = "max_age"
      case fullEvery = "full_every"
      case staleUsers = "stale_users"
      case byShard = "by_shard"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(maxAge, forKey: .maxAge)
      try container.encodeIfPresent(fullEvery, forKey: .fullEvery)
      try container.encode(users, forKey: .users)
      try container.encode(stale, forKey: .stale)
      try container.encode(staleUsers, forKey: .staleUsers)
      try container.encode(oldest, forKey: .oldest)
      try container.encodeIfPresent(byShard, forKey: .byShard)
    }
  }

  enum CodingKeys: String, CodingKey { case now, stale, outputs }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(now.description, forKey: .now)
    try container.encode(staleUsers, forKey: .stale)
    let outputs = tallies.map { tally in
      Output(
        name: tally.promise.output.rawValue, maxAge: DurationFormat.format(tally.promise.maxAge),
        fullEvery: tally.promise.fullEvery.map(DurationFormat.format), users: tally.users, stale: tally.stale,
        staleUsers: tally.staleUsers, oldest: tally.oldest?.description,
        byShard: shardCount.map { count in
          Dictionary(uniqueKeysWithValues: tally.byShard.map { ("\($0.key)/\(count)", $0.value) })
        })
    }
    try container.encode(outputs, forKey: .outputs)
  }
}
