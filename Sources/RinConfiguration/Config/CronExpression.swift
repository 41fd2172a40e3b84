import Foundation

/// A 5-field cron schedule (minute hour day-of-month month day-of-week) or an `@` macro,
/// validated and expanded into the values each field allows. The original text is kept for
/// display, the crontab generator and the run ledger.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
  public let text: String
  public let minute: CronField
  public let hour: CronField
  public let dayOfMonth: CronField
  public let month: CronField
  /// 0 = Sunday ... 6 = Saturday (a written 7 is stored as 0).
  public let dayOfWeek: CronField

  static let macros: [String: String] = [
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
  ]

  static let fieldList = "minute hour day-of-month month day-of-week"

  public init(parsing text: String) throws(CronParseError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var body = trimmed
    if trimmed.hasPrefix("@") {
      guard let expansion = Self.macros[trimmed.lowercased()] else {
        let known = Self.macros.keys.sorted().joined(separator: ", ")
        throw CronParseError(field: nil, reason: "unknown macro '\(trimmed)'; use one of \(known)")
      }
      body = expansion
    }
    let fields = body.split(whereSeparator: \.isWhitespace).map(String.init)
    guard fields.count == 5 else {
      throw CronParseError(
        field: nil, reason: "expected 5 fields (\(Self.fieldList)) but found \(fields.count)")
    }
    var parsed: [CronField] = []
    for (kind, field) in zip(CronFieldKind.allCases, fields) {
      parsed.append(try CronFieldParser(kind: kind).parse(field))
    }
    self.text = trimmed
    (minute, hour, dayOfMonth, month, dayOfWeek) = (parsed[0], parsed[1], parsed[2], parsed[3], parsed[4])
    try checkDayCanOccur()
  }

  public var description: String { text }

  /// Whether a calendar day is allowed, with the classic rule: when both day fields are
  /// restricted, either may match; otherwise both must.
  public func matchesDay(month: Int, dayOfMonth day: Int, weekday: Int) -> Bool {
    guard self.month.contains(month) else { return false }
    let domMatch = dayOfMonth.contains(day)
    let dowMatch = dayOfWeek.contains(weekday)
    if !dayOfMonth.isWildcard && !dayOfWeek.isWildcard { return domMatch || dowMatch }
    return domMatch && dowMatch
  }

  /// Rejects schedules such as `0 0 30 2 *` that would never fire, so a later next-fire
  /// search cannot loop forever and the operator learns about it at validation time.
  private func checkDayCanOccur() throws(CronParseError) {
    guard dayOfWeek.isWildcard, let firstDay = dayOfMonth.values.first else { return }
    // Leap years give February 29 days.
    let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard !month.values.contains(where: { firstDay <= longest[$0 - 1] }) else { return }
    throw CronParseError(
      field: "day-of-month",
      reason: "day \(firstDay) never occurs in the chosen month(s), so this schedule would never fire")
  }
}
