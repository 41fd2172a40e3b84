import RinProviderStub
import Testing

/// Runs each test case of a test or suite on a thread of its own instead of Swift's cooperative
/// pool. `swift test` runs every suite at once, and the pool (two threads on two cores) then
/// holds a queue of other tests' synchronous work: a test whose expectations race a clock (a
/// provider client's timeout against a stub's answer, a rate limit's wait) would see its
/// continuations wait in that queue. On an executor of its own, its awaits resume when their
/// answers come; the stubs already run on one each.
package struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    let executor = DedicatedExecutor()
    defer { executor.shutdown() }
    try await withTaskExecutorPreference(executor) { try await function() }
  }
}

extension Trait where Self == OwnThreadTrait {
  /// Each test case on a thread of its own: for tests whose expectations race a clock.
  package static var onItsOwnThread: Self { Self() }
}
