import RinDomain

/// The days one user's Upcoming section covers: `today` through `today + days`, both included,
/// in the user's own calendar (docs/CONTRACT.md §3.4). Everything counts days, never seconds.
public struct UpcomingWindow: Sendable, Hashable {
  public enum Outcome: Sendable, Hashable {
    case upcoming(UpcomingEvent)
    /// Valid, but not inside the window (or a reminder with no due date).
    case notUpcoming
    /// The date is not one the data contract allows: skipped and counted.
    case malformed
    /// A reminder in the window whose contact is deleted or not the user's: there is no card
    /// to show it on.
    case contactGone
  }

  public let today: CalendarDate
  /// Days after `today` that still count.
  public let days: Int
  public let feb29: Feb29Rule

  public init(today: CalendarDate, days: Int, feb29: Feb29Rule = .feb28) {
    self.today = today
    self.days = max(0, days)
    self.feb29 = feb29
  }

  public var last: CalendarDate { today.adding(days: days) }

  public func contains(_ date: CalendarDate) -> Bool { today <= date && date <= last }

  /// The birthday's next occurrence (on or after today), when it falls in the window.
  public func birthday(contactID: ContactID, text: String) -> Outcome {
    guard let birthday = Birthday(text) else { return .malformed }
    return event(
      .birthday, refID: contactID.rawValue, contactID: contactID,
      on: birthday.nextOccurrence(onOrAfter: today, feb29: feb29))
  }

  /// A reminder not completed whose due date falls in the window. An overdue reminder is not
  /// upcoming: the window starts today.
  public func reminder(_ reminder: Reminder) -> Outcome {
    guard let text = reminder.dueOn else { return .notUpcoming }
    guard let due = CalendarDate(text) else { return .malformed }
    // Only a reminder that would show is worth counting as lost with its contact.
    guard contains(due) else { return .notUpcoming }
    guard reminder.contactIsLive else { return .contactGone }
    return event(.reminder, refID: reminder.id, contactID: reminder.contactID, on: due)
  }

  private func event(
    _ kind: UpcomingEvent.Kind, refID: Int64, contactID: ContactID, on date: CalendarDate
  ) -> Outcome {
    guard contains(date) else { return .notUpcoming }
    return .upcoming(
      UpcomingEvent(
        kind: kind, refID: refID, occursOn: date, contactID: contactID, daysUntil: today.days(until: date)))
  }
}
