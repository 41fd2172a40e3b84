import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP stack of the provider client and the runtime's pings: Foundation's URLSession, which on Linux is libcurl underneath
/// (TLS, proxies and HTTP/2 from the system library, and no extra package to build).
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession

  public init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration, delegate: SameOriginRedirects(), delegateQueue: nil)
  }

  deinit { session.invalidateAndCancel() }

  public func send(_ request: HTTPTransportRequest, timeout: Duration) async throws(HTTPTransportError)
    -> HTTPTransportResponse
  {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    // corelibs Foundation hands libcurl whole seconds (0.5 s becomes an immediate timeout), so
    // URLSession's limit is only a backstop a little past the deadline that really applies.
    urlRequest.timeoutInterval = (timeout / .seconds(1)).rounded(.up) + 1
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    do {
      // URLSession's own timeout is an idle timeout; the deadline bounds the whole exchange.
      let prepared = urlRequest
      let (data, response) = try await Deadline.run(for: timeout) {
        try await self.data(for: prepared)
      }
      guard let http = response as? HTTPURLResponse else {
        throw HTTPTransportError.unreachable("not HTTP")
      }
      try SameOriginRedirects.refuseCrossOrigin(http, of: request.url)
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      return HTTPTransportResponse(status: http.statusCode, headers: headers, body: data)
    } catch let error as HTTPTransportError {
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

  /// `session.data(for:)` without its deadlock on Linux (swift-corelibs-foundation #5412, fixed
  /// upstream after the toolchain we build with): cancelling the awaiting task while the
  /// response arrives inverted two locks — the task's status lock, held while its cancellation
  /// handler runs, and URLSession's work queue, which `URLSessionTask.cancel()` waits for. Here
  /// the cancellation handler only hands `cancel()` to another thread and returns.
  private func data(for request: URLRequest) async throws -> (Data, URLResponse) {
    let running = RunningTask()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: URLError(.badServerResponse))
          }
        }
        task.resume()
        running.start(task)
      }
    } onCancel: {
      running.cancel()
    }
  }
}

/// The URLSession task behind one exchange, cancelled from another thread (see `data(for:)`),
/// also when the cancellation came before the task existed.
private final class RunningTask: Sendable {
  private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.cancelled
    }
    if cancelled { Self.cancelElsewhere(task) }
  }

  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.task
    }
    if let task { Self.cancelElsewhere(task) }
  }

  private static func cancelElsewhere(_ task: URLSessionDataTask) {
    DispatchQueue.global().async { task.cancel() }
  }
}
