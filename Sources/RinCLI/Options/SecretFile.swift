import Foundation
import RinRuntime

/// A secret given as a file a variable names (`RIN_DATABASE_URL_FILE`, `RIN_METRICS_PUSH_URL_FILE`):
/// how Kubernetes mounts a Secret, and never in the process's arguments.
enum SecretFile {
  /// The file's content without the line break an editor or a Secret adds at its end.
  static func read(_ path: String, variable: String, what: String, example: String) throws -> String {
    let text: String
    do {
      text = try OutputFile.read(path, what: what)
    } catch {
      throw CLIFailure(.configuration, "\(variable): \(CLIFailure.from(error).message)")
    }
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !value.isEmpty else {
      throw CLIFailure(.configuration, "\(variable): \(path) is empty; write the \(what) in it (\(example))")
    }
    return value
  }
}
