import FlyingFox
import Foundation
import Synchronization

/// A loopback HTTP server that records every request it gets and answers 200: the dead-man's
/// switch (healthchecks-style) that a pipeline's `notify` URLs ping, for tests and demos.
public final class PingReceiver: Sendable {
  public struct Ping: Sendable, Equatable {
    public var method: String
    public var path: String
    public var authorization: String?
    public var body: String
  }

  public let host: String
  public let port: UInt16
  private let server: HTTPServer
  private let task: Task<Void, any Error>
  private let store: PingStore

  /// `host`: the loopback address to listen on (127.0.0.2 is a second host on Linux's
  /// loopback). `redirectingTo`: answer every request whose path is not under `/redirected/`
  /// with `307 Location: <that>` instead of 200, as a provider or a gateway that moved would.
  public static func start(host: String = "127.0.0.1", redirectingTo location: String? = nil) async throws
    -> PingReceiver
  {
    let store = PingStore()
    let server = HTTPServer(
      address: try .inet(ip4: host, port: 0), timeout: 30,
      pool: NoDelaySocketPool(inner: HTTPServer.defaultPool()), logger: .disabled)
    await server.appendRoute("*") { request in
      let body = (try? await request.bodyData).map { String(decoding: $0, as: UTF8.self) } ?? ""
      store.pings.withLock {
        $0.append(
          Ping(
            method: request.method.rawValue, path: request.path,
            authorization: request.headers[HTTPHeader("Authorization")], body: body))
      }
      if let location, !request.path.hasPrefix("/redirected/") {
        return HTTPResponse(
          statusCode: HTTPStatusCode(307, phrase: "Temporary Redirect"),
          headers: [HTTPHeader("Location"): location], body: Data())
      }
      return HTTPResponse(statusCode: HTTPStatusCode(200, phrase: "OK"), body: Data("OK".utf8))
    }
    // On Swift's shared pool, as ProviderStub's server is (said there).
    let task = Task { try await server.run() }
    try await server.waitUntilListening(timeout: 10)
    guard case .ip4(_, let port) = await server.listeningAddress else {
      task.cancel()
      throw ProviderStub.StubError.notListening
    }
    return PingReceiver(host: host, port: port, server: server, task: task, store: store)
  }

  private init(
    host: String, port: UInt16, server: HTTPServer, task: Task<Void, any Error>,
    store: PingStore
  ) {
    self.host = host
    self.port = port
    self.server = server
    self.task = task
    self.store = store
  }

  /// `http://HOST:PORT`
  public var baseURL: String { "http://\(host):\(port)" }

  public var pings: [Ping] { store.pings.withLock { $0 } }

  public func stop() async {
    await server.stop(timeout: 1)
    task.cancel()
  }
}

/// The requests a `PingReceiver` got, shared with its route handler.
final class PingStore: Sendable {
  let pings = Mutex<[PingReceiver.Ping]>([])
}
