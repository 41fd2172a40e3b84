/// What a pipeline's schedule does with a wall time that daylight saving skips or repeats
/// (`pipelines.<name>.dst`). The default, `shift`/`first`, fires once either way.
public struct DSTPolicy: Sendable, Hashable {
  public enum Gap: String, Sendable, CaseIterable {
    /// Fire at the first instant after the gap.
    case shift
    /// Do not fire that day.
    case skip
  }

  public enum Repeat: String, Sendable, CaseIterable {
    /// Fire at the first occurrence only.
    case first
    /// Fire at the second occurrence only.
    case last
    /// Fire at both: a pipeline whose work is per hour of wall time.
    case both
  }

  public var gap: Gap
  public var `repeat`: Repeat

  public init(gap: Gap = .shift, repeat: Repeat = .first) {
    self.gap = gap
    self.repeat = `repeat`
  }

  static let key = "dst"
  static let keys = ["gap", "repeat"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    func read<T: RawRepresentable & CaseIterable>(_ key: String, _ fallback: T) throws(ConfigError) -> T
    where T.RawValue == String {
      guard let text = try config.string(key) else { return fallback }
      guard let value = T(rawValue: text) else {
        throw config.error(
          at: config.entry(key)?.value,
          "'\(config.childPath(key))' must be \(T.allCases.map(\.rawValue).joined(separator: " or ")), got '\(text)'"
        )
      }
      return value
    }
    self.init(gap: try read("gap", Gap.shift), repeat: try read("repeat", Repeat.first))
  }
}
