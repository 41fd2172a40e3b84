import Foundation
import RinSeed
import RinTestSupport

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

/// A seeded generator, so that every kill point and mutation replays.
typealias SeededGenerator = SplitMix64
