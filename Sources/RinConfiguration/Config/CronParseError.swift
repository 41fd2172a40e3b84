/// Why a cron expression was rejected, naming the field so the fix is obvious.
public struct CronParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `minute`, `hour`, `day-of-month`, `month`, `day-of-week`, or nil for the whole expression.
  public let field: String?
  public let reason: String

  public init(field: String?, reason: String) {
    self.field = field
    self.reason = reason
  }

  public var description: String {
    field.map { "\($0) field: \(reason)" } ?? reason
  }
}
