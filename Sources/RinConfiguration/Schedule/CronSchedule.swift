import Foundation
import RinDomain

/// A cron expression read in an IANA time zone: the fire times of a pipeline (docs/CONTRACT.md §4).
/// A wall time skipped by a spring-forward gap fires at the first instant after the gap (or not
/// at all, `dst.gap: skip`); one repeated by a fall-back fires at its first occurrence (or its
/// last, or both: `dst.repeat`); two scheduled times that land on the same instant fire once.
public struct CronSchedule: Sendable {
  public let expression: CronExpression
  public let timeZone: TimeZone
  public let dst: DSTPolicy
  let clock: ZoneClock

  public init(expression: CronExpression, timeZone: TimeZone, dst: DSTPolicy = DSTPolicy()) {
    self.expression = expression
    self.timeZone = timeZone
    self.dst = dst
    self.clock = ZoneClock(timeZone: timeZone)
  }

  /// The pipeline's schedule in its zone; nil only for a zone name tzdata does not know (the
  /// config loader has already rejected those).
  public init?(pipeline: PipelineConfig) {
    guard let zone = TimeZone(identifier: pipeline.timezone) else { return nil }
    self.init(expression: pipeline.schedule, timeZone: zone, dst: pipeline.dst)
  }

  /// Fire times at or after `start`, ascending, lazily.
  public func fires(from start: UTCInstant) -> FireSequence {
    FireSequence(schedule: self, start: start)
  }

  /// The first fire time at or after `start`.
  public func next(from start: UTCInstant) -> FireTime? {
    var iterator = fires(from: start).makeIterator()
    return iterator.next()
  }

  /// Every fire time in [`start`, `end`], ascending.
  public func fires(from start: UTCInstant, through end: UTCInstant) -> [FireTime] {
    var result: [FireTime] = []
    for fire in fires(from: start) {
      guard fire.instant <= end else { break }
      result.append(fire)
    }
    return result
  }

  /// The fire times whose wall time falls on `date` in this zone, ascending (empty when the day
  /// does not match). One offset check per day; per-time resolution only on transition days.
  func fires(on date: CalendarDate) -> [FireTime] {
    guard
      expression.matchesDay(month: date.month, dayOfMonth: date.day, weekday: Self.weekday(of: date))
    else { return [] }
    let constant = clock.constantOffset(onDayStarting: date.startOfDay)
    var result: [FireTime] = []
    for hour in expression.hour.values {
      for minute in expression.minute.values {
        let wall = LocalDateTime(date: date, hour: hour, minute: minute)
        let fires =
          constant.map { offset in
            [
              FireTime(
                instant: wall.asIfUTC - .seconds(offset), scheduled: wall,
                offsetSeconds: offset, adjustment: nil)
            ]
          } ?? resolvedFires(wall)
        for fire in fires {
          // Several wall times in one gap (or a gap time and the time after it) share an instant.
          if let last = result.last, last.instant >= fire.instant { continue }
          result.append(fire)
        }
      }
    }
    return result
  }

  /// The fire times of a wall time on a transition day, as the DST policy has them.
  private func resolvedFires(_ wall: LocalDateTime) -> [FireTime] {
    let fires: [(UTCInstant, FireTime.Adjustment?)] =
      switch (clock.resolve(wall), dst.gap, dst.repeat) {
      case (.unique(let instant), _, _): [(instant, nil)]
      case (.repeated(let first, _), _, .first): [(first, .fallBackFirstOccurrence)]
      case (.repeated(_, let second), _, .last): [(second, .fallBackLastOccurrence)]
      case (.repeated(let first, let second), _, .both):
        [(first, .fallBackFirstOccurrence), (second, .fallBackSecondOccurrence)]
      case (.gap(let gapEnd), .shift, _): [(gapEnd, .springForwardGap)]
      case (.gap, .skip, _): []
      }
    return fires.map { instant, adjustment in
      FireTime(
        instant: instant, scheduled: wall, offsetSeconds: clock.offset(at: instant),
        adjustment: adjustment)
    }
  }

  /// The zone's calendar date at `instant`.
  func localDate(of instant: UTCInstant) -> CalendarDate {
    CalendarDate(utcInstant: instant + .seconds(clock.offset(at: instant)))
  }

  /// 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday.
  static func weekday(of date: CalendarDate) -> Int {
    ((date.daysSinceEpoch + 4) % 7 + 7) % 7
  }
}
