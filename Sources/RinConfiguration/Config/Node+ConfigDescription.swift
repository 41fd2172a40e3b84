import Yams

/// How a YAML value is named in error messages: what the reader wrote, not Swift's view of it.
extension Node {
  /// The resolved tag (`!!int`, `!!str`, ...); Yams keeps `Tag.name` internal.
  var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }

  var isNull: Bool {
    if case .scalar(let scalar) = self, tagName == .null, scalar.style == .plain || scalar.style == .any {
      return true
    }
    return false
  }

  var kindDescription: String {
    switch self {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    case .scalar(let scalar):
      switch tagName {
      case .null: return "an empty value"
      case .bool: return "the boolean '\(scalar.string)'"
      case .int, .float: return "the number \(scalar.string)"
      default: return "the string '\(scalar.string)'"
      }
    }
  }
}
