import Foundation
import RinDomain

/// Turns wall-clock times of one IANA zone into instants, with the zone's real history of
/// offsets (tzdata through Foundation), including DST gaps and overlaps of any size.
struct ZoneClock: Sendable {
  let timeZone: TimeZone

  /// How a wall time maps to instants.
  enum Resolution: Equatable {
    case unique(UTCInstant)
    /// Clocks fell back over it: it happens at both instants, `first` < `second`.
    case repeated(first: UTCInstant, second: UTCInstant)
    /// Clocks sprang forward over it: it never happens; `gapEnd` is the first instant after.
    case gap(gapEnd: UTCInstant)
  }

  /// No zone is more than 14 h from UTC, so the instant of a wall time W lies within 15 h of W
  /// read as UTC; offsets sampled that far away are the ones before and after any transition.
  static let reach: Duration = .seconds(15 * 3_600)

  func offset(at instant: UTCInstant) -> Int {
    timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.seconds)))
  }

  /// The offset when it is the same over every instant a local day can cover, nil when the day
  /// has a transition (then each time needs `resolve`).
  func constantOffset(onDayStarting dayStart: UTCInstant) -> Int? {
    let before = offset(at: dayStart - Self.reach)
    return before == offset(at: dayStart + .seconds(86_400) + Self.reach) ? before : nil
  }

  func resolve(_ wall: LocalDateTime) -> Resolution {
    let asUTC = wall.asIfUTC
    let offsetBefore = offset(at: asUTC - Self.reach)
    let offsetAfter = offset(at: asUTC + Self.reach)
    // An instant t shows the wall time exactly when t + offset(t) lands on it.
    let candidates = Set([asUTC - .seconds(offsetBefore), asUTC - .seconds(offsetAfter)])
      .filter { $0 + .seconds(offset(at: $0)) == asUTC }
      .sorted()
    switch candidates.count {
    case 2: return .repeated(first: candidates[0], second: candidates[1])
    case 1: return .unique(candidates[0])
    default:
      // In a gap the clock jumps from before `asUTC - offsetAfter` to after `asUTC - offsetBefore`.
      return .gap(
        gapEnd: transition(after: asUTC - .seconds(offsetAfter), atOrBefore: asUTC - .seconds(offsetBefore)))
    }
  }

  /// The first instant in (`low`, `high`] whose offset is the one in force at `high`: a binary
  /// search over at most 30 h, so about 17 probes.
  private func transition(after low: UTCInstant, atOrBefore high: UTCInstant) -> UTCInstant {
    let target = offset(at: high)
    var (low, high) = (low, high)
    while low.distance(to: high) > 1 {
      let middle = low.advanced(by: low.distance(to: high) / 2)
      if offset(at: middle) == target { high = middle } else { low = middle }
    }
    return high
  }
}
