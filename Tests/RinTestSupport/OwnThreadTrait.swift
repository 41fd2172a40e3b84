import Testing

/// Runs each test case of a test or suite on a thread of its own instead of Swift's cooperative
/// pool; every suite has it (scripts/check-suite-threads.py). The pool has a thread per core and
/// is where the loopback stubs serve (`ProviderStub`): two test cases computing on it for a
/// minute (phone parsing) left a `PingReceiver` unanswered for that minute, and a case whose
/// expectations race a clock (a client's timeout against a stub's answer) saw its continuations
/// queue behind other cases' synchronous work. On threads of their own, the kernel shares the
/// cores among them all, a few milliseconds at a time.
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
