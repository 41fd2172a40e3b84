import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.4: each live user's birthdays and reminders from their today through the next
/// `window_days` days, in their own time zone, as `upcoming_events` rows; a `reminder_due` push
/// for each reminder due today. Runs hourly: it reads `--now`, not `--as-of`.
public struct UpcomingBirthdaysJob: Job {
  public typealias Settings = UpcomingBirthdaysSettings
  public typealias Details = NoDetails
  public static let name = JobName.upcomingBirthdays

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs[Self.self]
    // A run walks live users: the rows of accounts deleted since go first.
    try context.write { tx in
      _ = try UpcomingBirthdaysQueries(tx: tx).deleteUpcomingRowsOfDeletedUsers(in: context.userSelection)
    }
    let candidates = try collectCandidates(context)
    let horizon = context.outboxHorizon
    try context.forEachUserBatch(batchSize: settings.batchSize) { batch in
      let queries = UpcomingBirthdaysQueries(tx: batch.tx)
      let inputs = try UpcomingBirthdaysInputs.examine(
        batch, now: context.now, settings: settings, forced: context.fullPass, candidates: candidates)
      guard !inputs.states.isEmpty else { return }
      // Sorted, so that a batch writes in the same order every time.
      for (turn, owners) in inputs.turns.sorted(by: {
        ($0.key.new.today, $0.key.old.today) < ($1.key.new.today, $1.key.old.today)
      }) {
        try self.turn(owners, turn, batch: batch, now: context.now, horizon: horizon)
      }
      let owners = inputs.recomputed
      guard !owners.isEmpty else {
        try queries.putUpcomingOwnerStates(inputs.states)
        return
      }
      let wanted = try inputs.wanted(batch)
      let stored = try queries.upcomingEvents(of: owners)
      // The batch's upserts go in a few multi-row statements once every user is planned.
      var upserts: [(userID: UserID, event: UpcomingEvent, isNew: Bool)] = []
      var due: [(userID: UserID, event: UpcomingEvent)] = []
      var deletes: [(userID: UserID, key: UpcomingEvent.Key)] = []
      for user in owners {
        let sync = UpcomingEventsSync(wanted: wanted[user] ?? [], stored: stored[user] ?? [])
        deletes += sync.deletes.map { (user, $0) }
        upserts += sync.inserts.map { (user, $0, true) } + sync.updates.map { (user, $0, false) }
        due += sync.remindersDue.map { (user, $0) }
      }
      try queries.deleteUpcomingEvents(deletes)
      try queries.putUpcomingEvents(upserts, createdAt: context.now)
      for (user, event) in due {
        try notifyDue(event, for: user, batch: batch, now: context.now, horizon: horizon)
      }
      try queries.putUpcomingOwnerStates(inputs.states)
    }
  }

  /// How far back the run's pass over the contacts' stamps may reach (`collectCandidates`).
  static let longestPass = Duration.seconds(3 * 86_400)

  /// Finds, once per run, the owners with a contact stamped after the earliest kept instant
  /// (`collectUpcomingOwnersChanged`), and returns the scope they are kept under; a batch then
  /// checks only those against their own instant. Nil (every owner asked in each batch, a run
  /// over its contacts' entries): a `--full` run, a run of named users (they share no scope), no
  /// kept state yet, a kept state older than `longestPass`, or a stamp index still to be built
  /// (the pass would read every contact).
  private func collectCandidates(_ context: JobContext) throws -> String? {
    let selection = context.userSelection
    guard !context.fullPass, selection.userIDs == nil, context.storage.stampIndexesReady,
      let since = try context.read({ try UpcomingBirthdaysQueries(tx: $0).earliestUpcomingStampsAfter() }),
      // Every walked owner is examined at least when its date turns, so the earliest instant is
      // about a day old; an older one (the job stopped for days, a state no run walks any more)
      // would make the range read more than seeking per owner does.
      context.now - since <= Self.longestPass
    else { return nil }
    let scope = selection.scope
    let found = try context.write {
      try UpcomingBirthdaysQueries(tx: $0).collectUpcomingOwnersChanged(
        since: since, scope: scope, in: selection)
    }
    context.addRead(UpcomingBirthdaysCounter.ownersWithContactsStampedSinceTheEarliestKeptState, found)
    return scope
  }

  /// Owners whose date turned with nothing else changed (`UpcomingWindowTurn`): their stored
  /// rows are turned on the server, and what the newly reached days add is inserted: the
  /// birthdays on those days (looked up by month and day, not read all) and the reminders due
  /// on them. The rows are then exactly what a full computation gives (UpcomingWindowTurnTests,
  /// NightlyIncrementalExactnessTests), for a few rows read per owner instead of all their
  /// birthdays.
  private func turn(
    _ owners: [UserID], _ turn: UpcomingWindowTurn, batch: UserBatch, now: UTCInstant, horizon: OutboxHorizon
  ) throws {
    let queries = UpcomingBirthdaysQueries(tx: batch.tx)
    try queries.turnUpcomingEvents(of: owners, to: turn.new.today, shift: turn.shift)
    // Reminders due today that were already stored push unless dismissed, as a full
    // computation decides (`UpcomingEventsSync.remindersDue`); asked before the new rows go in.
    var due: [(userID: UserID, event: UpcomingEvent)] = []
    for row in try queries.undismissedReminderEvents(of: owners, on: turn.new.today) {
      due.append(
        (
          row.userID,
          UpcomingEvent(
            kind: .reminder, refID: row.refID, occursOn: turn.new.today, contactID: row.contactID,
            daysUntil: 0)
        ))
    }
    var inserts: [(userID: UserID, event: UpcomingEvent, isNew: Bool)] = []
    let table = BirthdayTable(turn.new)
    var birthdays = 0
    try queries.forEachContactBirthday(of: owners, monthDays: turn.monthDays) {
      user, contact, bytes in
      birthdays += 1
      switch table.birthday(contactID: contact, utf8: bytes) {
      case .upcoming(let event) where turn.isNew(event): inserts.append((user, event, true))
      case .malformed: batch.counts.addSkipped(UpcomingBirthdaysCounter.contactBirthdayMalformed)
      default: break
      }
    }
    var reminders = 0
    try queries.forEachOpenReminder(of: owners, due: turn.firstNewDay...turn.new.last) {
      user, reminder in
      reminders += 1
      switch turn.new.reminder(reminder) {
      case .upcoming(let event) where turn.isNew(event):
        inserts.append((user, event, true))
        if event.daysUntil == 0 { due.append((user, event)) }
      case .malformed: batch.counts.addSkipped(UpcomingBirthdaysCounter.reminderDueOnMalformed)
      case .contactGone: batch.counts.addSkipped(UpcomingBirthdaysCounter.reminderOfADeletedContact)
      default: break
      }
    }
    batch.counts.addRead(UpcomingBirthdaysCounter.contactBirthdays, birthdays)
    batch.counts.addRead(UpcomingBirthdaysCounter.openReminders, reminders)
    try queries.putUpcomingEvents(inserts, createdAt: now)
    for (user, event) in due { try notifyDue(event, for: user, batch: batch, now: now, horizon: horizon) }
  }

  private func notifyDue(
    _ event: UpcomingEvent, for user: UserID, batch: UserBatch, now: UTCInstant, horizon: OutboxHorizon
  ) throws {
    guard horizon.admits(event.occursOn) else {
      batch.counts.addSkipped(SharedSkip.beforeOutboxWindow)
      return
    }
    try batch.tx.enqueue(
      OutboxMessage(
        userID: user, kind: .reminderDue, deepLink: Notifications.contactDeepLink(event.contactID),
        payload: JSONText.encode(ReminderDuePayload(event)),
        dedupeKey: Notifications.reminderDueKey(reminder: event.refID, occursOn: event.occursOn)),
      at: now)
  }
}

/// Ids and the date only: the reminder's text is personal and stays in the app.
struct ReminderDuePayload: Encodable {
  var reminderId: Int64
  var contactId: ContactID
  var occursOn: String

  init(_ event: UpcomingEvent) {
    reminderId = event.refID
    contactId = event.contactID
    occursOn = event.occursOn.description
  }
}
