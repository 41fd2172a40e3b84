import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The provider's HTTP stack: Foundation's URLSession, which on Linux is libcurl underneath
/// (TLS, proxies and HTTP/2 from the system library, and no extra package to build).
public final class URLSessionTransport: ProviderTransport {
  private let session: URLSession

  public init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration)
  }

  deinit { session.invalidateAndCancel() }

  public func send(_ request: ProviderHTTPRequest, timeout: Double) async throws(ProviderTransportError)
    -> ProviderHTTPResponse
  {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = "POST"
    urlRequest.httpBody = request.body
    // corelibs Foundation hands libcurl whole seconds (0.5 s becomes an immediate timeout), so
    // URLSession's limit is only a backstop a little past the deadline that really applies.
    urlRequest.timeoutInterval = timeout.rounded(.up) + 1
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    do {
      // URLSession's own timeout is an idle timeout; the deadline bounds the whole exchange.
      let prepared = urlRequest
      let (data, response) = try await Deadline.run(seconds: timeout) {
        try await self.session.data(for: prepared)
      }
      guard let http = response as? HTTPURLResponse else {
        throw ProviderTransportError.unreachable("not HTTP")
      }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      return ProviderHTTPResponse(status: http.statusCode, headers: headers, body: data)
    } catch let error as ProviderTransportError {
      throw error
    } catch is CancellationError {
      throw .cancelled
    } catch let error as URLError {
      if error.code == .timedOut { throw .timedOut }
      if error.code == .cancelled { throw Task.isCancelled ? .cancelled : .timedOut }
      throw .unreachable("URL error \(error.code.rawValue)")
    } catch {
      throw .unreachable(String(describing: type(of: error)))
    }
  }
}
