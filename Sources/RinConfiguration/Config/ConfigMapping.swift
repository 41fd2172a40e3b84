import Yams

/// A YAML mapping being read into a settings struct. It knows its dotted path and position, so
/// every problem becomes a `ConfigError` pointing at the node that caused it.
public struct ConfigMapping {
  package struct Entry {
    package let key: String
    package let keyNode: Node
    package let value: Node
  }

  package let file: String
  /// Dotted path such as `jobs.enrichment-fetch.provider`; empty for the document root.
  package let path: String
  /// Where to point when something is missing rather than wrong.
  package let mark: Mark?
  package let entries: [Entry]

  /// An explicit null is read as an empty mapping: `daily-score:` with nothing after it and
  /// `daily-score: {}` both mean "all defaults".
  package init(_ node: Node?, path: String, file: String, fallbackMark: Mark?) throws(ConfigError) {
    self.file = file
    self.path = path
    // A null value's mark is the end of its key's line; the key itself is a better place.
    self.mark = node.flatMap { $0.isNull ? nil : $0.mark } ?? fallbackMark
    guard let node, !node.isNull else {
      self.entries = []
      return
    }
    guard case .mapping(let mapping) = node else {
      throw ConfigError(
        file: file, mark: node.mark,
        message: "\(Self.describe(path)) must be a mapping of keys to values, got \(node.kindDescription)")
    }
    var entries: [Entry] = []
    for (keyNode, value) in mapping {
      guard case .scalar(let scalar) = keyNode, !keyNode.isNull else {
        throw ConfigError(
          file: file, mark: keyNode.mark,
          message: "keys in \(Self.describe(path)) must be plain names, got \(keyNode.kindDescription)")
      }
      entries.append(Entry(key: scalar.string, keyNode: keyNode, value: value))
    }
    self.entries = entries
  }

  package static func describe(_ path: String) -> String {
    path.isEmpty ? "the top level" : "'\(path)'"
  }

  package func childPath(_ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  package func entry(_ key: String) -> Entry? {
    entries.first { $0.key == key }
  }

  package func error(at node: Node?, _ message: String) -> ConfigError {
    ConfigError(file: file, mark: node?.mark ?? mark, message: message)
  }

  /// `what` is "key" or "job"; jobs get their own wording because a typo in a job name is
  /// the likelier mistake and deserves the list of real names.
  package func rejectUnknownKeys(allowed: [String], what: String = "key") throws(ConfigError) {
    for entry in entries where !allowed.contains(entry.key) {
      let place = path.isEmpty ? "at the top level" : "in '\(path)'"
      let list = what == "job" ? "known jobs" : "allowed"
      var message = "unknown \(what) '\(entry.key)' \(place); \(list): \(allowed.joined(separator: ", "))"
      if let guess = NameSuggestion.closest(to: entry.key, in: allowed) {
        message += " (did you mean '\(guess)'?)"
      }
      throw error(at: entry.keyNode, message)
    }
  }

  /// A nested mapping; absent or null reads as empty so that defaults apply. `allowed` nil
  /// leaves key checks to the caller (job names and pipeline names get their own).
  package func section(_ key: String, allowing allowed: [String]?) throws(ConfigError) -> ConfigMapping {
    let entry = entry(key)
    let section = try ConfigMapping(
      entry?.value, path: childPath(key), file: file, fallbackMark: entry?.keyNode.mark ?? mark)
    if let allowed { try section.rejectUnknownKeys(allowed: allowed) }
    return section
  }

  /// A nested mapping whose absence means "feature off".
  package func optionalSection(_ key: String, allowing allowed: [String]) throws(ConfigError)
    -> ConfigMapping?
  {
    guard let entry = entry(key), !entry.value.isNull else { return nil }
    return try section(key, allowing: allowed)
  }
}
