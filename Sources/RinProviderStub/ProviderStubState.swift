import Synchronization

/// Everything the stub remembers, behind one lock.
struct ProviderStubState {
  var queued: [ProviderStubBehaviour] = []
  var defaultBehaviour = ProviderStubBehaviour.answer
  var answers: [String: ProviderStubAnswer] = [:]
  /// Answers by the email or number looked up, for tests that do not compute keys.
  var answersByValue: [String: ProviderStubAnswer] = [:]
  var records: [ProviderStubRecord] = []
  var requestsPerKey: [String: Int] = [:]
  var answersPerKey: [String: Int] = [:]
  var requestCount = 0
  /// Set by `stop()`: requests held by `.neverAnswer` are let go.
  var stopping = false

  mutating func nextBehaviour() -> ProviderStubBehaviour {
    queued.isEmpty ? defaultBehaviour : queued.removeFirst()
  }
}

/// The stub's state, shared by the server's connection tasks and the test that scripts it.
final class ProviderStubMemory: Sendable {
  private let state = Mutex(ProviderStubState())

  func withLock<T>(_ body: (inout ProviderStubState) -> T) -> T {
    state.withLock { body(&$0) }
  }
}
