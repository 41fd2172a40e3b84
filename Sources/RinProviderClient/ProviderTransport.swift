import Foundation

/// One HTTP exchange with the provider. The seam exists so the client's retry and pacing rules
/// can run over any HTTP stack; production uses `URLSessionTransport`.
public protocol ProviderTransport: Sendable {
  /// Sends `request`; throws `ProviderTransportError.timedOut` when no full answer came within
  /// `timeout`, `.unreachable` for a connection failure.
  func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws(ProviderTransportError)
    -> ProviderHTTPResponse
}

public struct ProviderHTTPRequest: Sendable {
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

public struct ProviderHTTPResponse: Sendable {
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

/// Why no response arrived. Carries no URL, header or body: messages built from it are safe
/// to log.
public enum ProviderTransportError: Error, Sendable, Equatable {
  case timedOut
  case unreachable(String)
  case cancelled
}
