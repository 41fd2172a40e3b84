import FlyingFox
import Foundation

/// A real HTTP server on loopback speaking the provider's bulk protocol (docs/CONTRACT.md §3.3), for
/// tests and for trying enrichment locally (`rinjobs provider-stub`). Tests script how it answers
/// and read back every request it received.
public final class ProviderStub: Sendable {
  /// Who answers keys without a scripted answer.
  public enum Fallback: Sendable {
    /// `FakePeople`: deterministic matches and 404s.
    case fakePeople
    /// A per-item 404 for every key.
    case notFound
  }

  public let port: UInt16
  private let server: HTTPServer
  private let serverTask: Task<Void, any Error>
  private let state: ProviderStubMemory
  private let settings: Settings

  struct Settings: Sendable {
    /// The accepted bearer token; nil accepts any non-empty one.
    var apiKey: String?
    var fallback: Fallback
    /// Keep every request's items (tests); the command line keeps counts only.
    var keepRecords: Bool
    /// Told of every request: when it was read (Unix seconds) and how many keys it carried.
    var onRequest: (@Sendable (_ receivedAt: Double, _ keys: Int) -> Void)?
  }

  /// Starts listening on 127.0.0.1:`port` (0 picks a free port; read `port` afterwards).
  public static func start(
    port: UInt16 = 0, apiKey: String? = nil, fallback: Fallback = .fakePeople, keepRecords: Bool = true,
    onRequest: (@Sendable (_ receivedAt: Double, _ keys: Int) -> Void)? = nil
  ) async throws -> ProviderStub {
    let state = ProviderStubMemory()
    let settings = Settings(
      apiKey: apiKey, fallback: fallback, keepRecords: keepRecords, onRequest: onRequest)
    let server = HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30,
      pool: NoDelaySocketPool(inner: HTTPServer.defaultPool()), logger: .disabled)
    await server.appendRoute("POST /v1/person/bulk") { request in
      await ProviderStubHandler(state: state, settings: settings).respond(to: request)
    }
    // On Swift's shared pool, whatever executor this task prefers: `run()` serves from an
    // unstructured task of its own, which no preference reaches. The test suites keep that pool
    // free instead (every suite `.onItsOwnThread`, scripts/check-suite-threads.py).
    let task = Task { try await server.run() }
    try await server.waitUntilListening(timeout: 10)
    guard case .ip4(_, let boundPort) = await server.listeningAddress else {
      task.cancel()
      throw StubError.notListening
    }
    return ProviderStub(
      port: boundPort, server: server, task: task, state: state, settings: settings)
  }

  private init(
    port: UInt16, server: HTTPServer, task: Task<Void, any Error>,
    state: ProviderStubMemory, settings: Settings
  ) {
    self.port = port
    self.server = server
    self.serverTask = task
    self.state = state
    self.settings = settings
  }

  enum StubError: Error { case notListening }

  /// `http://127.0.0.1:PORT`: the provider `url` to configure.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  public func stop() async {
    state.withLock { $0.stopping = true }
    await server.stop(timeout: 1)
    serverTask.cancel()
  }

  /// Runs until the task is cancelled or the server fails.
  public func wait() async throws {
    try await serverTask.value
  }

  // MARK: scripting

  /// The next requests get these behaviours, in order; then the default again.
  public func enqueue(_ behaviours: ProviderStubBehaviour...) {
    state.withLock { $0.queued.append(contentsOf: behaviours) }
  }

  public func setDefaultBehaviour(_ behaviour: ProviderStubBehaviour) {
    state.withLock { $0.defaultBehaviour = behaviour }
  }

  public func setAnswer(_ answer: ProviderStubAnswer, for key: String) {
    state.withLock { $0.answers[key] = answer }
  }

  /// The answer for whichever key carries this email or number (a key's own answer wins).
  public func setAnswer(_ answer: ProviderStubAnswer, forLookedUp value: String) {
    state.withLock { $0.answersByValue[value] = answer }
  }

  // MARK: what it saw

  public var records: [ProviderStubRecord] { state.withLock { $0.records } }
  public var requestCount: Int { state.withLock { $0.requestCount } }
  /// How many requests carried each key.
  public var requestsPerKey: [String: Int] { state.withLock { $0.requestsPerKey } }
  /// How many responses delivered a per-key result for each key.
  public var answersPerKey: [String: Int] { state.withLock { $0.answersPerKey } }
}
