/// Who knows whom among Rin users. Mutual links join users whose ids are close (people who
/// joined around the same time through each other); the rule is symmetric in (a, b), so each
/// side's generator independently agrees that A has B's number and B has A's.
enum SocialGraph {
  static let window: Int64 = 40
  /// Per mille of user pairs within the window that know each other.
  static let linkPerMille: UInt64 = 50

  private static func pairHash(_ seed: UInt64, _ a: Int64, _ b: Int64) -> UInt64 {
    let (low, high) = a < b ? (a, b) : (b, a)
    return SplitMix64.mix(
      seed ^ SplitMix64.mix(UInt64(bitPattern: low) &* 0x1_0000_0001 &+ UInt64(bitPattern: high)))
  }

  static func linked(_ seed: UInt64, _ a: Int64, _ b: Int64) -> Bool {
    a != b && pairHash(seed, a, b) % 1_000 < linkPerMille
  }

  /// Whether an earlier enrichment run already linked the pair (both sides agree).
  static func enriched(_ seed: UInt64, _ a: Int64, _ b: Int64) -> Bool {
    (pairHash(seed, a, b) >> 32) & 1 == 1
  }

  static func mutualFriends(of id: Int64, users: Int) -> ClosedRange<Int64> {
    max(1, id - window)...max(1, min(Int64(users), id + window))
  }
}
