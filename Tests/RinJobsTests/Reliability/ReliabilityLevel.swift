import Foundation

/// How hard the reliability tests try. `swift test` runs a time-bounded subset (what CI runs);
/// `RIN_RELIABILITY=full` runs the full suite (scripts/reliability.sh). `RIN_RELIABILITY_SEED`
/// replays another seed.
enum ReliabilityLevel {
  static var isFull: Bool { ProcessInfo.processInfo.environment["RIN_RELIABILITY"] == "full" }

  /// kill -9 points per job.
  static var killsPerJob: Int { isFull ? 24 : 3 }

  /// Mutated pipelines.yaml variants parsed in-process.
  static var configMutations: Int { isFull ? 6_000 : 300 }

  /// Of those, variants also run through the real `rinjobs validate`.
  static var configMutationsThroughBinary: Int { isFull ? 60 : 6 }

  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["RIN_RELIABILITY_SEED"].flatMap { UInt64($0) } ?? 20_261_122
  }

  /// One line of figures for docs/RELIABILITY.md, visible in the test output.
  static func report(_ line: String) {
    print("reliability[\(isFull ? "full" : "quick"), seed \(seed)]: \(line)")
  }
}

/// SplitMix64: a small seeded generator, so that every kill point and mutation replays.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
