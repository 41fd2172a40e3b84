import Foundation

/// `metrics:` — where a run's metrics go besides `--metrics-file`: a Prometheus Pushgateway that
/// each run pushes to when it ends, because a Kubernetes Job's pod (and a textfile in it) goes
/// when the run does. `--metrics-push URL` overrides `push_url`.
public struct MetricsSettings: Sendable, Hashable {
  /// The Pushgateway's base URL, e.g. `http://pushgateway.monitoring:9091`.
  public var pushURL: URL?

  public init(pushURL: URL? = nil) {
    self.pushURL = pushURL
  }

  static let keys = ["push_url"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    guard let text = try config.string("push_url") else {
      self.init()
      return
    }
    guard let url = Self.pushURL(text) else {
      throw config.error(
        at: config.entry("push_url")?.value,
        "'\(config.childPath("push_url"))' must be a Pushgateway's http or https URL such as http://pushgateway:9091, got '\(text)'"
      )
    }
    self.init(pushURL: url)
  }

  /// `text` as a Pushgateway base URL: http or https with a host, else nil.
  public static func pushURL(_ text: String) -> URL? {
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      url.host?.isEmpty == false
    else { return nil }
    return url
  }
}
