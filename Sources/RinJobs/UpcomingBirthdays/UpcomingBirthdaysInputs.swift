import RinDomain
import RinRuntime
import RinStorage

/// One batch's owners, and which of them this run examines (docs/JOBS.md "What counts as a
/// change (issue 30)"): those whose local date turned since their rows were computed, whose
/// zone, open reminders or the settings differ, or with a contact stamped since.
/// The others' rows already are what a full pass would write, and their contacts are not read.
struct UpcomingBirthdaysInputs {
  /// The examined owners' windows, in the order of the batch.
  var windows: [Int64: UpcomingWindow] = [:]
  /// The examined owners' states, to keep once their rows are written.
  var states: [(userID: Int64, state: UpcomingOwnerState)] = []

  var examined: [Int64] { states.map(\.userID) }

  static func examine(
    _ batch: UserBatch, now: Int64, settings: UpcomingBirthdaysSettings, forced: Bool
  ) throws -> UpcomingBirthdaysInputs {
    let tx = batch.tx
    var inputs = UpcomingBirthdaysInputs()
    var reminders: [Int64: [(id: Int64, contactID: Int64, dueOn: String?)]] = [:]
    try tx.forEachOpenReminderAsWritten(of: batch.userIDs) { user, id, contact, dueOn in
      reminders[user, default: []].append((id, contact, dueOn))
    }
    let stored = forced ? [:] : try tx.upcomingOwnerStates(of: batch.userIDs)
    var reasons: [Int64: OwnerExamination] = [:]
    var current: [Int64: (day: LocalDay, state: UpcomingOwnerState)] = [:]
    var unstamped: [Int64: UpcomingOwnerState] = [:]
    let stampsAfter = ChangeStamp.after(now: now, end: now)
    // Users share a few zones: each zone's date is looked up once per batch, not per user.
    var days: [String?: LocalDay] = [:]
    for (user, zone) in try tx.userTimeZones(of: batch.userIDs) {
      let day = days[zone] ?? LocalDay(at: now, zoneName: zone)
      days[zone] = day
      let digest = UpcomingOwnerState.digest(
        reminders: reminders[user] ?? [], windowDays: settings.windowDays,
        feb29: settings.feb29InCommonYears)
      let state = UpcomingOwnerState(
        today: day.date, zone: zone, inputsDigest: digest, stampsAfter: stampsAfter)
      current[user] = (day, state)
      if let reason = UpcomingOwnerState.examination(
        stored: stored[user], today: day.date, zone: zone, inputsDigest: digest, forced: forced)
      {
        reasons[user] = reason
      } else {
        unstamped[user] = stored[user]
      }
    }
    for user in try tx.upcomingOwnersChanged(since: unstamped) {
      reasons[user] = .changed
      unstamped[user] = nil
    }
    batch.counts.addRead("users", current.count)
    batch.counts.addRead("users unchanged", unstamped.count)
    for (reason, count) in Dictionary(grouping: reasons.values, by: { $0 }).mapValues(\.count) {
      batch.counts.addRead("users examined (\(reason.rawValue))", count)
    }
    for user in batch.userIDs where reasons[user] != nil {
      guard let (day, state) = current[user] else { continue }
      switch day.zone {
      case .valid: break
      case .missing: batch.counts.addSkipped("user time zone missing (UTC date used)")
      case .invalid: batch.counts.addSkipped("user time zone invalid (UTC date used)")
      }
      inputs.windows[user] = UpcomingWindow(
        today: day.date, days: settings.windowDays, feb29: settings.feb29InCommonYears)
      inputs.states.append((user, state))
    }
    return inputs
  }

  /// Each examined owner's occurrences in their window: live contacts' birthdays and open
  /// reminders, streamed.
  func wanted(_ batch: UserBatch) throws -> [Int64: [UpcomingEvent]] {
    var wanted: [Int64: [UpcomingEvent]] = [:]
    func add(_ outcome: UpcomingWindow.Outcome, for user: Int64, malformed: String) {
      switch outcome {
      case .upcoming(let event): wanted[user, default: []].append(event)
      case .notUpcoming: break
      case .malformed: batch.counts.addSkipped(malformed)
      case .contactGone: batch.counts.addSkipped("reminder of a deleted contact")
      }
    }
    let owners = examined
    guard !owners.isEmpty else { return [:] }
    // Users of one zone share a window, and so its table; rows come user after user, so the
    // table is looked up once per run of a user's rows, not per contact.
    var tables: [UpcomingWindow: BirthdayTable] = [:]
    var tableOfUser: (user: Int64, table: BirthdayTable?)?
    var birthdays = 0
    try batch.tx.forEachContactBirthday(of: owners) { user, contact, bytes in
      if tableOfUser?.user != user {
        let table = windows[user].map { window in
          if let table = tables[window] { return table }
          let table = BirthdayTable(window)
          tables[window] = table
          return table
        }
        tableOfUser = (user, table)
      }
      guard let table = tableOfUser?.table else { return }
      birthdays += 1
      add(table.birthday(contactID: contact, utf8: bytes), for: user, malformed: "contact birthday malformed")
    }
    var remindersRead = 0
    try batch.tx.forEachOpenReminder(of: owners) { user, reminder in
      guard let window = windows[user] else { return }
      remindersRead += 1
      add(window.reminder(reminder), for: user, malformed: "reminder due_on malformed")
    }
    batch.counts.addRead("contact birthdays", birthdays)
    batch.counts.addRead("open reminders", remindersRead)
    return wanted
  }
}
