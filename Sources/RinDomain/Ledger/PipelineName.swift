/// A pipeline's name, as `pipelines.yaml` declares it and the ledger, the crontab and the command
/// line repeat it.
///
/// Invariant: starts with an ASCII letter or digit and holds only ASCII letters, digits, `-`, `_`
/// and `.`: the generated crontab and command lines carry it unquoted.
public struct PipelineName: RawRepresentable, Hashable, Comparable, Sendable, Codable,
  CustomStringConvertible, ExpressibleByStringLiteral
{
  public let rawValue: String

  /// Nil for a name that breaks the invariant.
  public init?(rawValue: String) {
    guard Self.isValid(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// A name written in the code (tests, examples); a literal that breaks the invariant is a
  /// programming error.
  public init(stringLiteral value: String) {
    precondition(Self.isValid(value), "invalid pipeline name '\(value)'")
    rawValue = value
  }

  public static func isValid(_ text: String) -> Bool {
    guard let first = text.first, first.isASCII, first.isLetter || first.isNumber else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
  }

  public var description: String { rawValue }

  public static func < (a: PipelineName, b: PipelineName) -> Bool { a.rawValue < b.rawValue }
}
