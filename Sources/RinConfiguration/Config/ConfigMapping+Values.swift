import Foundation
import Yams

/// Typed reads of scalar values. Absent keys take the default; present keys must be right.
extension ConfigMapping {
  package func int(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
    guard let node = entry(key)?.value else { return value }
    guard node.tagName == .int, let number = node.int else {
      throw typeError(key, node, expected: "a whole number")
    }
    guard range.contains(number) else {
      throw error(at: node, "'\(childPath(key))' must be \(Self.describe(range)), got \(number)")
    }
    return number
  }

  package func double(_ key: String, default value: Double, in range: ClosedRange<Double>) throws(ConfigError)
    -> Double
  {
    guard let node = entry(key)?.value else { return value }
    guard node.tagName == .int || node.tagName == .float, let number = node.float else {
      throw typeError(key, node, expected: "a number")
    }
    guard range.contains(number) else {
      let bounds = "between \(range.lowerBound) and \(range.upperBound)"
      throw error(at: node, "'\(childPath(key))' must be \(bounds), got \(node.string ?? "\(number)")")
    }
    return number
  }

  /// Any non-null scalar reads as its text: `name: 2024` is a fine name.
  package func string(_ key: String) throws(ConfigError) -> String? {
    guard let node = entry(key)?.value else { return nil }
    guard case .scalar(let scalar) = node, !node.isNull else {
      throw typeError(key, node, expected: "a string")
    }
    guard !scalar.string.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw error(at: node, "'\(childPath(key))' is empty; give it a value or leave the key out")
    }
    return scalar.string
  }

  package func requiredString(_ key: String) throws(ConfigError) -> String {
    guard let value = try string(key) else { throw missing(key) }
    return value
  }

  /// Durations in config are all waits, windows or lifetimes, where zero makes no sense.
  package func duration(_ key: String, default value: Duration) throws(ConfigError) -> Duration {
    guard let node = entry(key)?.value else { return value }
    guard case .scalar(let scalar) = node, !node.isNull else {
      throw typeError(key, node, expected: "a duration such as 7d or 1h30m")
    }
    let parsed: Duration
    do {
      parsed = try DurationFormat.parse(scalar.string)
    } catch {
      throw self.error(at: node, "bad duration for '\(childPath(key))': \(error.message)")
    }
    guard parsed > .zero else {
      throw error(at: node, "'\(childPath(key))' must be longer than zero, got \(scalar.string)")
    }
    return parsed
  }

  package func stringList(_ key: String, default value: [String]) throws(ConfigError) -> [String] {
    guard let node = entry(key)?.value else { return value }
    guard case .sequence(let sequence) = node else {
      throw typeError(key, node, expected: "a list of strings, e.g. [a, b]")
    }
    var items: [String] = []
    for item in sequence {
      guard case .scalar(let scalar) = item, !item.isNull, !scalar.string.isEmpty else {
        throw error(at: item, "items of '\(childPath(key))' must be strings, got \(item.kindDescription)")
      }
      items.append(scalar.string)
    }
    return items
  }

  package func missing(_ key: String) -> ConfigError {
    ConfigError(
      file: file, mark: mark,
      message: "missing required key '\(key)' in \(Self.describe(path)); add it")
  }

  package func typeError(_ key: String, _ node: Node, expected: String) -> ConfigError {
    error(at: node, "'\(childPath(key))' must be \(expected), got \(node.kindDescription)")
  }

  package static func describe(_ range: ClosedRange<Int>) -> String {
    range.upperBound == Int.max
      ? "at least \(range.lowerBound)"
      : "between \(range.lowerBound) and \(range.upperBound)"
  }
}
