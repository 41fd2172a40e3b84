import RinDomain

/// The instants daily-score measures against for one `as_of`.
public struct ScoreWindow: Sendable, Equatable {
  /// `as_of` + 1 day, 00:00 UTC: "live" means live at this instant.
  public let end: UTCInstant
  /// `end` − 30 days: churn counts what happened in (start, end].
  public let churnStart: UTCInstant

  public init(asOf: CalendarDate) {
    end = asOf.adding(days: 1).startOfDay
    churnStart = end.advanced(by: -Self.churnSeconds)
  }

  /// Churn counts what happened in the 30 days before the end.
  public static let churn = Duration.seconds(churnSeconds)
  /// `churn` in seconds, for the per-contact arithmetic.
  static let churnSeconds: Int64 = 30 * 86_400

  public func isLive(createdAt: UTCInstant, deletedAt: UTCInstant?) -> Bool {
    createdAt < end && (deletedAt.map { $0 >= end } ?? true)
  }

  /// Folds one contact into the user's inputs.
  public func add(_ c: ScoreContact, userCreatedAt: UTCInstant, to inputs: inout ScoreInputs) {
    if c.createdAt > churnStart && c.createdAt <= end
      && c.createdAt >= userCreatedAt.saturating(plus: 86_400)
    {
      inputs.churn += 1
    }
    if let deleted = c.deletedAt, deleted > churnStart, deleted <= end { inputs.churn += 1 }
    guard isLive(createdAt: c.createdAt, deletedAt: c.deletedAt) else { return }
    inputs.contacts += 1
    if c.hasName && c.hasChannel { inputs.complete += 1 }
    if c.isEnriched { inputs.enriched += 1 }
    if c.isRinUser {
      inputs.rin += 1
      if c.isMutual { inputs.mutual += 1 }
    }
    if c.isOrganized { inputs.organized += 1 }
  }

  /// Saturates instead of trapping: `created_at` is input, and may be any 64-bit value.
  public func tenureDays(userCreatedAt: UTCInstant) -> Int {
    let (elapsed, overflow) = end.seconds.subtractingReportingOverflow(userCreatedAt.seconds)
    guard !overflow else {
      return userCreatedAt.seconds < 0 ? Int(Int64.max / 86_400) : Int(Int64.min / 86_400)
    }
    return Int(elapsed / 86_400)
  }
}
