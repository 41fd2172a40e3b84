import RinDomain

/// An owner's window moving forward from the local date their rows were computed for to a later
/// one, with nothing else changed (zone, open reminders, settings, contacts). Most examinations
/// of an hourly run are this (the ~1/24 of owners whose date turned in the hour, and every owner
/// on the first run of a night), and the stored rows already hold most of the answer:
/// - a stored occurrence on or after the new today is still the next occurrence of its birthday
///   or the reminder's date (the first occurrence on or after the old today that is also on or
///   after the new today is the first on or after the new today), with `days_until` smaller by
///   `shift`;
/// - a stored occurrence before the new today has passed: its next one is a year away, outside
///   the window (which is why the turn requires `shift + days < 365`, the shortest gap between
///   two occurrences of a birthday, Feb 29 rules included);
/// - an occurrence not stored can only fall on a day the old window did not reach (`newDays`):
///   had it fallen on an old day, it would have been the next occurrence then as well.
/// So the turn deletes the passed rows, shifts the others, and looks up only the birthdays whose
/// month and day can fall on a new day (`monthDays`): about 1/366 of an owner's birthdays for a
/// one-day turn, instead of all of them. `UpcomingWindowTurnTests` checks it against the full
/// window on every day of a leap year and a common year, both Feb 29 rules and several widths.
public struct UpcomingWindowTurn: Sendable, Hashable {
  public let old: UpcomingWindow
  public let new: UpcomingWindow

  /// Nil when the turn cannot be taken from the stored rows: the date did not move forward (it
  /// is the same, or a clock went back), or moved so far that a passed occurrence's next one
  /// could be inside the new window.
  public init?(from oldToday: CalendarDate, to newToday: CalendarDate, days: Int, feb29: Feb29Rule) {
    let window = UpcomingWindow(today: newToday, days: days, feb29: feb29)
    let shift = oldToday.days(until: newToday)
    guard shift > 0, shift + window.days < 365 else { return nil }
    old = UpcomingWindow(today: oldToday, days: days, feb29: feb29)
    new = window
  }

  /// Days every kept row's `days_until` goes down by.
  public var shift: Int { old.today.days(until: new.today) }

  /// The first day of the new window the old one did not cover; the new days run through
  /// `new.last`.
  public var firstNewDay: CalendarDate { max(old.last.adding(days: 1), new.today) }

  /// Whether an occurrence the new window gives is one the stored rows cannot hold.
  public func isNew(_ event: UpcomingEvent) -> Bool { event.occursOn >= firstNewDay }

  /// `MM-DD` of every birthday text whose occurrence can fall on a new day: each new day's own
  /// month and day, and Feb 29 wherever a Feb 29 birthday can be moved to (Feb 28 or Mar 1 in a
  /// common year, by `feb29`). A text's last five characters are its month and day in both
  /// valid forms (`YYYY-MM-DD`, `--MM-DD`); a candidate is still evaluated in full
  /// (`BirthdayTable`), so looking up a month-day too many costs a row, never a wrong answer.
  public var monthDays: [String] {
    var days: [String] = []
    var day = firstNewDay
    while day <= new.last {
      days.append(day.monthDay)
      if (day.month == 2 && day.day == 28) || (day.month == 3 && day.day == 1) { days.append("02-29") }
      day = day.adding(days: 1)
    }
    var seen = Set<String>()
    return days.filter { seen.insert($0).inserted }
  }
}
