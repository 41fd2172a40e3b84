/// One output's freshness over the users it promises: how many, how many are stale, the first
/// `listed` of them by id, the oldest result a stale user sees, and the same counts by shard
/// when the deployment splits the users into `shardCount` shards (`id mod N`, as `--shard K/N`).
public struct FreshnessTally: Sendable, Equatable {
  /// The users `rinjobs freshness` lists by id; the counts hold them all.
  public static let listed = 100

  public struct ShardCounts: Sendable, Equatable, Codable {
    public var users = 0
    public var stale = 0

    public init(users: Int = 0, stale: Int = 0) {
      self.users = users
      self.stale = stale
    }
  }

  public let promise: FreshnessPromise
  public let shardCount: Int?
  public private(set) var users = 0
  public private(set) var stale = 0
  /// Ascending when the stale users are added in id order, as the queries return them.
  public private(set) var staleUsers: [UserID] = []
  /// The oldest instant a stale user's result is from (`FreshnessRules`).
  public private(set) var oldest: UTCInstant?
  /// By shard index, when `shardCount` is set.
  public private(set) var byShard: [Int: ShardCounts] = [:]

  public init(promise: FreshnessPromise, shardCount: Int?) {
    self.promise = promise
    self.shardCount = shardCount
    if let shardCount { for index in 0..<shardCount { byShard[index] = ShardCounts() } }
  }

  /// The users promised in shard `index` (all of them without shards).
  public mutating func addPromised(_ count: Int, shard index: Int?) {
    users += count
    if let index { byShard[index, default: ShardCounts()].users += count }
  }

  public mutating func addStale(user: UserID, since: UTCInstant) {
    stale += 1
    if staleUsers.count < Self.listed { staleUsers.append(user) }
    oldest = Swift.min(oldest ?? since, since)
    if let index = shard(of: user) { byShard[index, default: ShardCounts()].stale += 1 }
  }

  /// The shard `K` of `K/N` that holds `user` (`id mod N`, never negative).
  public func shard(of user: UserID) -> Int? {
    guard let shardCount else { return nil }
    let remainder = Int(user.rawValue % Int64(shardCount))
    return remainder < 0 ? remainder + shardCount : remainder
  }

  /// How long ago the oldest stale result was computed, in whole seconds; 0 when none is stale.
  public func oldestAge(now: UTCInstant) -> Int64 {
    oldest.map { Swift.max(0, $0.distance(to: now)) } ?? 0
  }
}
