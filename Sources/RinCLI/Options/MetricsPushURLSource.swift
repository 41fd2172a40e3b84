import Foundation
import RinConfiguration
import RinDomain

/// Where the Pushgateway's URL comes from when `--metrics-push` does not give it, first found
/// wins: the file named by `RIN_METRICS_PUSH_URL_FILE` (a mounted Secret: the URL carries the
/// push credentials, `http://user:password@pushgateway:9091`), `RIN_METRICS_PUSH_URL`, then
/// `metrics.push_url` (deploy/README.md "The Pushgateway").
enum MetricsPushURLSource {
  static let fileVariable = "RIN_METRICS_PUSH_URL_FILE"
  static let variable = "RIN_METRICS_PUSH_URL"

  /// The URL given in the environment, or nil to keep `metrics.push_url`.
  static func given(environment: [String: String]) throws -> URL? {
    let text: String
    if let file = environment[fileVariable], !file.isEmpty {
      text = try SecretFile.read(
        file, variable: fileVariable, what: "Pushgateway URL",
        example: "http://user:password@pushgateway:9091")
    } else if let url = environment[variable], !url.isEmpty {
      text = url
    } else {
      return nil
    }
    guard let url = MetricsSettings.pushURL(text) else {
      throw CLIFailure(
        .configuration,
        "\(environment[fileVariable] != nil ? fileVariable : variable) must give a Pushgateway's http or https URL such as http://pushgateway:9091, got '\(SecretMask.masked(text))'"
      )
    }
    return url
  }
}
