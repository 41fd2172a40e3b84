import Foundation

/// `pipelines.<name>.notify:` — URLs a pipeline run pings when it starts, succeeds or fails, for
/// a dead-man's switch (healthchecks-style) that alerts when the pings stop coming. A ping that
/// fails is logged and never fails the run.
public struct PipelineNotify: Sendable, Hashable {
  public var start: URL?
  public var success: URL?
  public var failure: URL?
  /// The environment variable holding a bearer token to send, if the service wants one.
  public var tokenEnv: String?

  public init(start: URL? = nil, success: URL? = nil, failure: URL? = nil, tokenEnv: String? = nil) {
    self.start = start
    self.success = success
    self.failure = failure
    self.tokenEnv = tokenEnv
  }

  static let key = "notify"
  static let keys = ["start", "success", "failure", "token_env"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    self.init(
      start: try Self.readURL(config, "start"), success: try Self.readURL(config, "success"),
      failure: try Self.readURL(config, "failure"), tokenEnv: try config.string("token_env"))
  }

  private static func readURL(_ config: ConfigMapping, _ key: String) throws(ConfigError) -> URL? {
    guard let text = try config.string(key) else { return nil }
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      url.host?.isEmpty == false
    else {
      throw config.error(
        at: config.entry(key)?.value,
        "'\(config.childPath(key))' must be an http or https URL such as https://hc-ping.com/UUID, got '\(text)'"
      )
    }
    return url
  }
}
