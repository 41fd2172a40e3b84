import Foundation

/// One outgoing HTTP exchange: a provider's request, a pipeline's notify ping, a Pushgateway
/// push. The seam exists so the provider client's retry and pacing rules, and the runtime's
/// pings, run over any HTTP stack without the runtime importing the provider client;
/// production uses `URLSessionTransport`.
public protocol HTTPTransport: Sendable {
  /// Sends `request`; throws `HTTPTransportError.timedOut` when no full answer came within
  /// `timeout`, `.unreachable` for a connection failure.
  func send(_ request: HTTPTransportRequest, timeout: Duration) async throws(HTTPTransportError)
    -> HTTPTransportResponse
}

public struct HTTPTransportRequest: Sendable {
  /// POST for the provider and the notify pings; PUT replaces a Pushgateway group whole.
  public var method: String
  public var url: URL
  /// Includes `Authorization`: never log a request's headers.
  public var headers: [String: String]
  public var body: Data

  public init(url: URL, headers: [String: String], body: Data, method: String = "POST") {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

public struct HTTPTransportResponse: Sendable {
  public var status: Int
  /// Header names lower-cased.
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String], body: Data) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
  }
}

/// Why no response arrived. Carries no path, query, header or body: messages built from it are
/// safe to log.
public enum HTTPTransportError: Error, Sendable, Equatable {
  case timedOut
  case unreachable(String)
  case cancelled
  /// The server answered with a redirect to another origin (scheme, host or port), which is
  /// not followed: the request's `Authorization` and body are for its own origin only. The two
  /// origins as `scheme://host:port`, never a path.
  case redirected(from: String, to: String)
}
