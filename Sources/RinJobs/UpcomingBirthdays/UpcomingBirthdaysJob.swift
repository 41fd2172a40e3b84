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
    // A run walks live users: the rows of accounts deleted since go first.
    try context.write { tx in _ = try tx.deleteUpcomingRowsOfDeletedUsers(in: context.userSelection) }
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      let inputs = try UpcomingBirthdaysInputs.examine(
        batch, now: context.now, settings: settings, forced: context.fullPass)
      let owners = inputs.examined
      guard !owners.isEmpty else { return }
      let wanted = try inputs.wanted(batch)
      let stored = try batch.tx.upcomingEvents(of: owners)
      // The batch's upserts go in a few multi-row statements once every user is planned.
      var upserts: [(userID: Int64, event: UpcomingEvent, isNew: Bool)] = []
      var due: [(userID: Int64, event: UpcomingEvent)] = []
      for user in owners {
        let sync = UpcomingEventsSync(wanted: wanted[user] ?? [], stored: stored[user] ?? [])
        for key in sync.deletes { try batch.tx.deleteUpcomingEvent(userID: user, key) }
        upserts += sync.inserts.map { (user, $0, true) } + sync.updates.map { (user, $0, false) }
        due += sync.remindersDue.map { (user, $0) }
      }
      try batch.tx.putUpcomingEvents(upserts, createdAt: context.now)
      for (user, event) in due { try notifyDue(event, for: user, tx: batch.tx, now: context.now) }
      try batch.tx.putUpcomingOwnerStates(inputs.states)
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
