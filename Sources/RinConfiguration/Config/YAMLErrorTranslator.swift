import Yams

/// Turns Yams' errors, which print a multi-line snippet, into one `file:line:column` line.
enum YAMLErrorTranslator {
  static func translate(_ error: any Error, yaml: String, file: String) -> ConfigError {
    guard let yamlError = error as? YamlError else {
      return ConfigError(file: file, line: 1, column: 1, message: "cannot read YAML: \(error)")
    }
    switch yamlError {
    case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
      let .composer(context, problem, mark, _):
      return ConfigError(file: file, mark: mark, message: message(problem, context, at: mark, in: yaml))
    case let .reader(problem, offset, _, _):
      let (line, column) = position(of: offset ?? 0, in: yaml)
      return ConfigError(
        file: file, line: line, column: column, message: "unreadable YAML: \(problem); save the file as UTF-8"
      )
    case let .duplicatedKeysInMapping(duplicates, context):
      let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
      return ConfigError(
        file: file, mark: context.mark,
        message: "duplicate key \(keys) in one mapping (first use here); keep only one")
    default:
      return ConfigError(file: file, line: 1, column: 1, message: "cannot read YAML: \(yamlError)")
    }
  }

  private static func message(
    _ problem: String, _ context: YamlError.Context?, at mark: Mark, in yaml: String
  ) -> String {
    if problem == "but found another document" {
      return "the file holds more than one YAML document (a second '---'); keep only one"
    }
    var text = "malformed YAML: \(problem)"
    if let context {
      text += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
    }
    switch character(at: mark, in: yaml) {
    case "\t":
      text += "; indent with spaces, YAML does not allow tabs"
    // The usual cause: `schedule: @daily` or `schedule: */5 * * * *`, which YAML reserves.
    case "@", "`", "*", "&":
      text += "; values starting with @, `, * or & must be quoted"
    default:
      if problem.contains("scanning an alias") || context?.text.contains("scanning an alias") == true {
        text += "; values starting with @, `, * or & must be quoted"
      }
    }
    return text + "; fix the syntax"
  }

  private static func character(at mark: Mark, in yaml: String) -> Character? {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard mark.line >= 1, mark.line <= lines.count else { return nil }
    let scalars = lines[mark.line - 1].unicodeScalars
    guard mark.column >= 1, mark.column <= scalars.count else { return nil }
    return Character(scalars[scalars.index(scalars.startIndex, offsetBy: mark.column - 1)])
  }

  /// libyaml reports reader errors as a byte offset into the UTF-8 text.
  private static func position(of offset: Int, in text: String) -> (line: Int, column: Int) {
    var line = 1, column = 1
    for byte in text.utf8.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }
}
