import RinDomain

/// What to write so that one user's rows become exactly the occurrences in their window.
/// Dismissals belong to the app: an occurrence keeps its row (and so its `dismissed_at`) for as
/// long as it stays in the window; a row whose occurrence passed or is no longer valid goes.
public struct UpcomingEventsSync: Sendable, Equatable {
  public private(set) var inserts: [UpcomingEvent] = []
  /// Rows whose `days_until` or `contact_id` changed; `dismissed_at` and `created_at` are kept.
  public private(set) var updates: [UpcomingEvent] = []
  public private(set) var deletes: [UpcomingEvent.Key] = []
  /// Reminders due today that the user has not dismissed: each queues one `reminder_due`.
  public private(set) var remindersDue: [UpcomingEvent] = []

  /// - Parameters:
  ///   - wanted: the user's occurrences in the window (a repeated key counts once).
  ///   - stored: the user's rows now.
  public init(wanted: [UpcomingEvent], stored: [UpcomingEvent.Stored]) {
    // Whatever is left here once the wanted occurrences took theirs is no longer wanted.
    var storedByKey: [UpcomingEvent.Key: UpcomingEvent.Stored] = [:]
    storedByKey.reserveCapacity(stored.count)
    for row in stored { storedByKey[row.key] = row }
    // In key order, compared as typed values: a key's texts (the date formatted) are built only
    // to look up a stored row, and not at all for a user with none (a first run).
    var previous: UpcomingEvent?
    for event in wanted.sorted(by: UpcomingEvent.keyOrder) {
      if let previous, UpcomingEvent.keyOrder(previous, event) == false { continue }
      previous = event
      let row = storedByKey.isEmpty ? nil : storedByKey.removeValue(forKey: event.key)
      if let row {
        if row.contactID != event.contactID || row.daysUntil != event.daysUntil { updates.append(event) }
      } else {
        inserts.append(event)
      }
      if event.kind == .reminder && event.daysUntil == 0 && row?.isDismissed != true {
        remindersDue.append(event)
      }
    }
    deletes = storedByKey.keys.sorted()
  }
}
