import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

/// docs/CONTRACT.md §5 "malformed YAML … exit 78, file:line:col": thousands of seeded mutations of
/// the committed pipelines.yaml go through the loader `rinjobs validate` uses; none may crash
/// or hang, and every one it rejects names a position in the file. A sample also goes through
/// the real executable, which must exit 78 with that message.
@Suite("Reliability: mutated pipelines.yaml", .serialized, .onItsOwnThread)
struct ReliabilityConfigFuzzTests {
  /// A variant's loader deadline: far above the milliseconds a load takes, far below a hang.
  static let deadlineSeconds = 10.0

  enum Outcome {
    case valid
    case rejected(ConfigError)
    case hung
  }

  @Test func everyMutationIsEitherValidOrRejectedWithAPositionAndNoneCrashesOrHangs() async {
    await Checks.offPool { checks in
      let original = try [UInt8](
        Data(contentsOf: Executable.repositoryRoot.appendingPathComponent("pipelines.yaml")))
      let directory = try TemporaryDirectory()
      var mutator = ConfigMutator(random: SeededGenerator(seed: ReliabilityLevel.seed))
      var valid = 0
      var rejected: [(path: String, error: ConfigError)] = []
      var kindsTried: [ConfigMutator.Kind: Int] = [:]
      for index in 0..<ReliabilityLevel.configMutations {
        let (bytes, kinds) = mutator.variant(of: original)
        for kind in kinds { kindsTried[kind, default: 0] += 1 }
        let path = directory.path("variant-\(index).yaml")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        switch Self.load(path) {
        case .hung:
          checks.record("variant \(index) (\(kinds)) did not load within \(Self.deadlineSeconds) s")
          return
        case .valid:
          valid += 1
          try? FileManager.default.removeItem(atPath: path)
        case .rejected(let error):
          let lineCount = Self.yamlLineCount(bytes)
          checks.expect(error.file == path)
          checks.expect((1...lineCount + 1).contains(error.line), "variant \(index) (\(kinds)): \(error)")
          checks.expect(error.column >= 1, "variant \(index) (\(kinds)): \(error)")
          checks.expect(
            !error.message.trimmingCharacters(in: .whitespaces).isEmpty, "variant \(index) (\(kinds))")
          rejected.append((path, error))
        }
      }
      checks.expect(rejected.count > valid, "most damage is caught")

      // A sample through the real executable: exit 78, the same `file:line:column: message`.
      let step = max(1, rejected.count / ReliabilityLevel.configMutationsThroughBinary)
      var throughBinary = 0
      for (path, error) in stride(from: 0, to: rejected.count, by: step).map({ rejected[$0] }) {
        let result = try Executable.runBlocking("rinjobs", ["validate", "--config", path])
        checks.expect(result.exitCode == 78, "\(path): \(result.stderr)")
        checks.expect(result.stderr.contains("\(path):\(error.line):\(error.column): "), "\(result.stderr)")
        throughBinary += 1
      }
      ReliabilityLevel.report(
        "config fuzz: \(ReliabilityLevel.configMutations) variants (\(kindsTried.count) mutation kinds), "
          + "\(rejected.count) rejected with a position, \(valid) still valid, 0 crashes, 0 hangs; "
          + "\(throughBinary) through `rinjobs validate`, all exit 78")
    }
  }

  /// Lines as YAML counts them: CR, LF, CRLF, NEL, LS and PS all end a line.
  static func yamlLineCount(_ bytes: [UInt8]) -> Int {
    var lines = 1
    var previous: Unicode.Scalar = "\0"
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      switch scalar {
      case "\n": if previous != "\r" { lines += 1 }
      case "\r", "\u{85}", "\u{2028}", "\u{2029}": lines += 1
      default: break
      }
      previous = scalar
    }
    return lines
  }

  /// Loads on a thread of its own, so that a hang is reported instead of stalling the suite.
  static func load(_ path: String) -> Outcome {
    let done = DispatchSemaphore(value: 0)
    let result = OutcomeBox()
    let thread = Thread {
      do throws(ConfigError) {
        _ = try ConfigLoader.load(path: path, jobs: JobCatalog.settings)
        result.set(.valid)
      } catch {
        result.set(.rejected(error))
      }
      done.signal()
    }
    thread.start()
    guard done.wait(timeout: .now() + deadlineSeconds) == .success else { return .hung }
    return result.get() ?? .hung
  }
}

/// The loader thread's outcome, handed over under a lock.
final class OutcomeBox: @unchecked Sendable {
  private let lock = NSLock()
  private var outcome: ReliabilityConfigFuzzTests.Outcome?
  func set(_ value: ReliabilityConfigFuzzTests.Outcome) { lock.withLock { outcome = value } }
  func get() -> ReliabilityConfigFuzzTests.Outcome? { lock.withLock { outcome } }
}
