import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.4: each live user's birthdays and reminders from their today through the next
/// `window_days` days, in their own time zone, as `upcoming_events` rows; a `reminder_due` push
/// for each reminder due today. Runs hourly: it reads `--now`, not `--as-of`.
public struct UpcomingBirthdaysJob: Job {
  public let name = JobName.upcomingBirthdays

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs.upcomingBirthdays
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      let wanted = try UpcomingBirthdaysInputs.wanted(
        batch, now: context.now, windowDays: settings.windowDays, feb29: settings.feb29InCommonYears)
      let stored = try batch.tx.upcomingEvents(of: batch.userIDs)
      // The batch's upserts go in a few multi-row statements once every user is planned.
      var upserts: [(userID: Int64, event: UpcomingEvent, isNew: Bool)] = []
      var due: [(userID: Int64, event: UpcomingEvent)] = []
      for user in batch.userIDs {
        let sync = UpcomingEventsSync(wanted: wanted[user] ?? [], stored: stored[user] ?? [])
        for key in sync.deletes { try batch.tx.deleteUpcomingEvent(userID: user, key) }
        upserts += sync.inserts.map { (user, $0, true) } + sync.updates.map { (user, $0, false) }
        due += sync.remindersDue.map { (user, $0) }
      }
      try batch.tx.putUpcomingEvents(upserts, createdAt: context.now)
      for (user, event) in due { try notifyDue(event, for: user, tx: batch.tx, now: context.now) }
    }
  }

  private func notifyDue(_ event: UpcomingEvent, for user: Int64, tx: StorageTransaction, now: Int64) throws {
    try tx.enqueue(
      OutboxMessage(
        userID: user, kind: "reminder_due", deepLink: Notifications.contactDeepLink(event.contactID),
        payload: JSONText.encode(ReminderDuePayload(event)),
        dedupeKey: Notifications.reminderDueKey(reminder: event.refID, occursOn: event.occursOn)),
      at: now)
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
