import RinDomain

/// The fire times of a schedule from an instant on, walking the zone's calendar a day at a
/// time and skipping whole months the schedule excludes, so even `0 0 29 2 *` (Feb 29, up to
/// eight years apart) takes a few hundred steps.
public struct FireSequence: Sequence, Sendable {
  let schedule: CronSchedule
  let start: UTCInstant

  /// Every valid schedule fires within 8 years (Feb 29 across a skipped leap year); past this
  /// many years the walk gives up rather than loop.
  static let horizonYears = 401

  public struct Iterator: IteratorProtocol {
    let schedule: CronSchedule
    let start: UTCInstant
    let lastDay: CalendarDate
    var day: CalendarDate
    var pending: [FireTime] = []
    var index = 0
    /// Nil before the first.
    var lastEmitted: UTCInstant?

    public mutating func next() -> FireTime? {
      while true {
        while index < pending.count {
          let fire = pending[index]
          index += 1
          guard fire.instant >= start, lastEmitted.map({ fire.instant > $0 }) ?? true else { continue }
          lastEmitted = fire.instant
          return fire
        }
        guard day <= lastDay else { return nil }
        pending = schedule.fires(on: day)
        index = 0
        day = nextCandidate(after: day)
      }
    }

    /// The next day, or the 1st of the next month when the schedule excludes this month.
    private func nextCandidate(after date: CalendarDate) -> CalendarDate {
      let next = date.adding(days: 1)
      var month = next
      while !schedule.expression.month.contains(month.month) && month <= lastDay {
        let (y, m) = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
        month = CalendarDate(year: y, month: m, clampingDay: 1)
      }
      return month
    }
  }

  public func makeIterator() -> Iterator {
    // A wall time late on the day before can be moved past midnight by a gap: start a day early.
    let first = schedule.localDate(of: start).adding(days: -1)
    let lastDay = CalendarDate(year: first.year + Self.horizonYears, month: 12, clampingDay: 31)
    return Iterator(schedule: schedule, start: start, lastDay: lastDay, day: first)
  }
}
