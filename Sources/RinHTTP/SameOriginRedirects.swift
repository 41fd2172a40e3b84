import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSession follows redirects anywhere and resends the request's headers (`Authorization`
/// among them) and body (the contacts' emails and phones) to the new place. This delegate
/// follows a redirect only within the request's origin (scheme, host and port, as browsers
/// draw the line); to another origin it stops, so URLSession hands back the redirect itself,
/// which `refuseCrossOrigin` turns into an error naming both origins.
final class SameOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let from = task.originalRequest?.url ?? response.url
    if let from, let to = request.url, Self.origin(of: from) == Self.origin(of: to) {
      completionHandler(request)
    } else {
      completionHandler(nil)
    }
  }

  /// Throws `.redirected` when `response` is a redirect (one this delegate did not follow)
  /// whose `Location` is of another origin than `url`.
  static func refuseCrossOrigin(_ response: HTTPURLResponse, of url: URL) throws(HTTPTransportError) {
    guard (300..<400).contains(response.statusCode), response.statusCode != 304 else { return }
    guard let location = response.value(forHTTPHeaderField: "Location"),
      let target = URL(string: location, relativeTo: url)?.absoluteURL
    else { return }
    let (from, to) = (origin(of: url), origin(of: target))
    if from != to { throw .redirected(from: from, to: to) }
  }

  /// `scheme://host:port`, the port given even when it is the scheme's default.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
  }
}
