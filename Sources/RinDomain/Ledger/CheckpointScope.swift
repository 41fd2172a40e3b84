/// Which checkpoint of a job and `as_of` a run resumes from and keeps: its shard, and the users
/// `--user` named. Its text (the `scope` column of `job_checkpoints`) is written here only:
/// `all`, `K/N`, then ` users 3,7` with `--user`, as checkpoints in existing databases hold it.
public struct CheckpointScope: Sendable, Hashable, CustomStringConvertible {
  public let shard: RunShard
  /// `--user` ids, ascending; nil for every user of the shard.
  public let userIDs: [UserID]?

  public init(shard: RunShard, userIDs: [UserID]?) {
    self.shard = shard
    self.userIDs = userIDs
  }

  public var description: String {
    shard.description + (userIDs.map { " users " + Self.usersText($0) } ?? "")
  }

  /// `--user` ids as the summary, the ledger's `users` column and a scope write them: ascending,
  /// comma-separated.
  public static func usersText(_ userIDs: [UserID]) -> String {
    userIDs.map { String($0.rawValue) }.joined(separator: ",")
  }
}
