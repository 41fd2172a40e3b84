/// The values one cron field allows. Kept as a bit set (every field fits in 0...59) so that a
/// later next-fire search can test and scan values cheaply.
public struct CronField: Sendable, Hashable {
  let mask: UInt64
  /// True when the field was written as a bare `*`. Day-of-month and day-of-week need this for
  /// the classic rule: when both are restricted, a day matches if either one matches.
  public let isWildcard: Bool

  init(values: some Sequence<Int>, isWildcard: Bool) {
    self.mask = values.reduce(0) { $0 | (1 << UInt64($1)) }
    self.isWildcard = isWildcard
  }

  /// The allowed values, ascending.
  public var values: [Int] {
    (0..<64).filter { contains($0) }
  }

  public func contains(_ value: Int) -> Bool {
    (0..<64).contains(value) && mask & (1 << UInt64(value)) != 0
  }
}
