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
    var storedByKey: [UpcomingEvent.Key: UpcomingEvent.Stored] = [:]
    for row in stored { storedByKey[row.key] = row }
    var wantedKeys = Set<UpcomingEvent.Key>()
    // Each key built once: building it inside the comparator formatted dates n log n times.
    let keyed = wanted.map { (key: $0.key, event: $0) }.sorted { $0.key < $1.key }
    for (key, event) in keyed {
      guard wantedKeys.insert(key).inserted else { continue }
      let row = storedByKey[key]
      if let row {
        if row.contactID != event.contactID || row.daysUntil != event.daysUntil { updates.append(event) }
      } else {
        inserts.append(event)
      }
      if event.kind == .reminder && event.daysUntil == 0 && row?.isDismissed != true {
        remindersDue.append(event)
      }
    }
    deletes = stored.map(\.key).filter { !wantedKeys.contains($0) }.sorted()
  }
}
