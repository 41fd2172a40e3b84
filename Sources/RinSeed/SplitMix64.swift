/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast and fully specified, so a seed gives the
/// same stream on every platform and Swift release. The seeder draws through `SeedRandom`;
/// tests that replay seeded choices (the reliability suites) use it as their generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= Self.golden
    return Self.finalize(state)
  }

  /// A well-spread hash of `value`: the first output of a generator seeded with it.
  public static func mix(_ value: UInt64) -> UInt64 { finalize(value &+ golden) }

  /// 2^64 divided by the golden ratio: the stream's step.
  private static var golden: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  private static func finalize(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
