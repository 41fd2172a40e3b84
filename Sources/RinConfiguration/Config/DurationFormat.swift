import Foundation

/// The short duration form used in `pipelines.yaml` and on the command line: `7d`, `48h`,
/// `1h30m`, `500ms`. One grammar for both places, so an operator never has to remember two.
public enum DurationFormat {
  /// Units from largest to smallest. Weeks are accepted but never printed, so that the
  /// defaults people read (`7d`, `90d`) come back out exactly as they were written.
  static let units: [(suffix: String, milliseconds: Int64)] = [
    ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000),
    ("m", 60_000), ("s", 1_000), ("ms", 1),
  ]

  static let hint = "write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"

  /// Parses a non-negative duration. Units must go from largest to smallest, each at most once,
  /// so that a value has a single obvious reading.
  public static func parse(_ text: String) throws(DurationFormatError) -> Duration {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw DurationFormatError("empty duration; \(hint)") }
    if trimmed.allSatisfy(\.isASCIIDigit) {
      throw DurationFormatError("'\(trimmed)' has no unit; \(hint)")
    }
    guard !trimmed.contains(where: \.isWhitespace) else {
      throw DurationFormatError("'\(trimmed)' contains spaces; \(hint)")
    }
    var total: Int64 = 0
    var lastUnitIndex = -1
    var rest = Substring(trimmed)
    while !rest.isEmpty {
      let digits = rest.prefix(while: \.isASCIIDigit)
      guard !digits.isEmpty, let number = Int64(digits) else {
        throw DurationFormatError("'\(trimmed)' is not a duration; \(hint)")
      }
      rest = rest.dropFirst(digits.count)
      let suffix = rest.prefix(while: { $0.isLetter })
      rest = rest.dropFirst(suffix.count)
      guard let index = units.firstIndex(where: { $0.suffix == suffix }) else {
        let what = suffix.isEmpty ? "a number without a unit" : "unknown unit '\(suffix)'"
        throw DurationFormatError("'\(trimmed)' has \(what); \(hint)")
      }
      guard index > lastUnitIndex else {
        throw DurationFormatError(
          "'\(trimmed)' repeats a unit or lists a smaller unit before a larger one; write e.g. 1h30m")
      }
      lastUnitIndex = index
      let (part, overflow1) = number.multipliedReportingOverflow(by: units[index].milliseconds)
      let (sum, overflow2) = total.addingReportingOverflow(part)
      guard !overflow1, !overflow2 else { throw DurationFormatError("'\(trimmed)' is too large") }
      total = sum
    }
    return .milliseconds(total)
  }

  /// The canonical short form: largest units first, zero parts left out (`90s` → `1m30s`).
  /// Sub-millisecond parts are dropped: the grammar cannot express them.
  public static func format(_ duration: Duration) -> String {
    if duration < .zero { return "-" + format(.zero - duration) }
    let (seconds, attoseconds) = duration.components
    var remaining = seconds
    var text = ""
    for unit in units where unit.suffix != "w" && unit.milliseconds >= 1_000 {
      let unitSeconds = unit.milliseconds / 1_000
      if remaining >= unitSeconds {
        text += "\(remaining / unitSeconds)\(unit.suffix)"
        remaining %= unitSeconds
      }
    }
    let milliseconds = attoseconds / 1_000_000_000_000_000
    if milliseconds > 0 { text += "\(milliseconds)ms" }
    return text.isEmpty ? "0s" : text
  }
}

extension Duration {
  /// `Duration(configString: "3d")`, for command-line options such as `--max-age`.
  public init?(configString: String) {
    guard let value = try? DurationFormat.parse(configString) else { return nil }
    self = value
  }

  /// The same short form `DurationFormat.parse` reads.
  public var configString: String { DurationFormat.format(self) }
}
