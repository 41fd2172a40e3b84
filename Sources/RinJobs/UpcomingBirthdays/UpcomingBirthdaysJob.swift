import RinDomain
import RinRuntime
import RinStorage

/// DESIGN.md §3.4: each live user's birthdays and reminders from their today through the next
/// `window_days` days, in their own time zone, as `upcoming_events` rows; a `reminder_due` push
/// for each reminder due today. Runs hourly: it reads `--now`, not `--as-of`.
public struct UpcomingBirthdaysJob: Job {
  public let name = JobName.upcomingBirthdays

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs.upcomingBirthdays
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      let wanted = try UpcomingBirthdaysInputs.wanted(
        batch, now: context.now, windowDays: settings.windowDays)
      let stored = try batch.tx.upcomingEvents(of: batch.userIDs)
      for user in batch.userIDs {
        let sync = UpcomingEventsSync(wanted: wanted[user] ?? [], stored: stored[user] ?? [])
        try apply(sync, for: user, tx: batch.tx, now: context.now)
      }
    }
  }

  private func apply(_ sync: UpcomingEventsSync, for user: Int64, tx: StorageTransaction, now: Int64) throws {
    for key in sync.deletes { try tx.deleteUpcomingEvent(userID: user, key) }
    for event in sync.inserts { try tx.putUpcomingEvent(userID: user, event, createdAt: now, isNew: true) }
    for event in sync.updates { try tx.putUpcomingEvent(userID: user, event, createdAt: now, isNew: false) }
    for event in sync.remindersDue {
      try tx.enqueue(
        OutboxMessage(
          userID: user, kind: "reminder_due", deepLink: Notifications.contactDeepLink(event.contactID),
          payload: JSONText.encode(ReminderDuePayload(event)),
          dedupeKey: Notifications.reminderDueKey(reminder: event.refID, occursOn: event.occursOn)),
        at: now)
    }
  }
}

/// Ids and the date only: the reminder's text is personal and stays in the app.
struct ReminderDuePayload: Encodable {
  var reminderId: Int64
  var contactId: Int64
  var occursOn: String

  init(_ event: UpcomingEvent) {
    reminderId = event.refID
    contactId = event.contactID
    occursOn = event.occursOn.description
  }
}
