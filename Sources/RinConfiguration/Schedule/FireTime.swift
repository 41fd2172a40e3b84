import RinDomain

/// One instant a schedule fires at, with the local time it was scheduled for and the DST rule
/// that moved or thinned it, if one did (docs/CONTRACT.md §4).
public struct FireTime: Sendable, Hashable {
  public enum Adjustment: Sendable, Hashable {
    /// The scheduled wall time does not exist (clocks sprang forward over it): it fires at the
    /// first instant after the gap.
    case springForwardGap
    /// The scheduled wall time happens twice (clocks fell back): it fires at the first only
    /// (`dst.repeat: first`), or at the first of two (`both`).
    case fallBackFirstOccurrence
    /// It fires at the second occurrence only (`dst.repeat: last`).
    case fallBackLastOccurrence
    /// The second of two fires (`dst.repeat: both`).
    case fallBackSecondOccurrence
  }

  public let instant: UTCInstant
  /// The wall time the schedule names.
  public let scheduled: LocalDateTime
  /// The zone's offset from UTC at `instant`, in seconds.
  public let offsetSeconds: Int
  public let adjustment: Adjustment?

  public init(instant: UTCInstant, scheduled: LocalDateTime, offsetSeconds: Int, adjustment: Adjustment?) {
    self.instant = instant
    self.scheduled = scheduled
    self.offsetSeconds = offsetSeconds
    self.adjustment = adjustment
  }

  /// What a clock in the pipeline's zone shows when it fires (differs from `scheduled` in a gap).
  public var local: LocalDateTime { LocalDateTime(instant: instant, offsetSeconds: offsetSeconds) }

  /// The slot this fire time is, as the run ledger keeps it (in ISO 8601).
  public var slot: UTCInstant { instant }

  /// A sentence for `rinjobs plan`, nil when no rule applied.
  public var ruleNote: String? {
    switch adjustment {
    case .springForwardGap:
      "spring forward: \(scheduled.clock) does not exist on \(scheduled.date); fires at \(local.clock), the first instant after the gap"
    case .fallBackFirstOccurrence:
      "fall back: \(scheduled.clock) happens twice on \(scheduled.date); fires at the first (UTC\(UTCOffset.format(offsetSeconds))) only"
    case .fallBackLastOccurrence:
      "fall back: \(scheduled.clock) happens twice on \(scheduled.date); fires at the second (UTC\(UTCOffset.format(offsetSeconds))) only (dst.repeat: last)"
    case .fallBackSecondOccurrence:
      "fall back: \(scheduled.clock) happens twice on \(scheduled.date); this is the second of both (UTC\(UTCOffset.format(offsetSeconds))) (dst.repeat: both)"
    case nil: nil
    }
  }
}
