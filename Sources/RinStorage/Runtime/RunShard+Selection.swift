import RinDomain

extension RunShard {
  /// The shard a selection takes: `all` without one.
  public init(_ shard: UserSelection.Shard?) {
    self = shard.map { .part(index: $0.index, count: $0.count) } ?? .all
  }
}
