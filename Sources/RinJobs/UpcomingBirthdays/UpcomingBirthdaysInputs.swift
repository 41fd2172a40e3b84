import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// One batch's owners, and which of them this run examines (docs/JOBS.md "upcoming-birthdays",
/// "What counts as a change"): those whose local date turned since their rows were computed, whose
/// zone, open reminders or the settings differ, or with a contact stamped since.
/// The others' rows already are what a full pass would write, and their contacts are not read.
struct UpcomingBirthdaysInputs {
  /// The windows of the owners whose rows are computed from their contacts and reminders.
  var windows: [UserID: UpcomingWindow] = [:]
  /// Those owners, in the order of the batch.
  var recomputed: [UserID] = []
  /// The owners whose date turned with nothing else changed, by turn: their stored rows are
  /// turned on the server and only the birthdays of the newly reached days are read
  /// (`UpcomingWindowTurn`). Owners of one zone share a turn, so a batch has a few.
  var turns: [UpcomingWindowTurn: [UserID]] = [:]
  /// The examined owners' states, to keep once their rows are written.
  var states: [(userID: UserID, state: UpcomingOwnerState)] = []

  /// - Parameter candidates: the scope of the run's pass over the contacts' stamps
  ///   (`UpcomingBirthdaysJob.collectCandidates`): only the owners it found are checked against
  ///   their own instant. Nil: every owner is.
  static func examine(
    _ batch: UserBatch, now: UTCInstant, settings: UpcomingBirthdaysSettings, forced: Bool,
    candidates: String? = nil
  ) throws -> UpcomingBirthdaysInputs {
    var verdicts = try UpcomingOwnerVerdicts.judge(batch, now: now, settings: settings, forced: forced)
    try verdicts.examineStamped(batch.tx, candidates: candidates)
    verdicts.count(in: batch)
    var inputs = UpcomingBirthdaysInputs()
    for user in batch.userIDs where verdicts.reasons[user] != nil {
      guard let (day, state) = verdicts.current[user] else { continue }
      switch day.zone {
      case .valid: break
      case .missing: batch.counts.addSkipped(UpcomingBirthdaysCounter.userTimeZoneMissing)
      case .invalid: batch.counts.addSkipped(UpcomingBirthdaysCounter.userTimeZoneInvalid)
      }
      if let turn = verdicts.turning[user] {
        inputs.turns[turn, default: []].append(user)
      } else {
        inputs.windows[user] = UpcomingWindow(
          today: day.date, days: settings.windowDays, feb29: settings.feb29InCommonYears)
        inputs.recomputed.append(user)
      }
      inputs.states.append((user, state))
    }
    return inputs
  }

  /// Each examined owner's occurrences in their window: live contacts' birthdays and open
  /// reminders, streamed.
  func wanted(_ batch: UserBatch) throws -> [UserID: [UpcomingEvent]] {
    var wanted: [UserID: [UpcomingEvent]] = [:]
    func add(_ outcome: UpcomingWindow.Outcome, for user: UserID, malformed: UpcomingBirthdaysCounter) {
      switch outcome {
      case .upcoming(let event): wanted[user, default: []].append(event)
      case .notUpcoming: break
      case .malformed: batch.counts.addSkipped(malformed)
      case .contactGone: batch.counts.addSkipped(UpcomingBirthdaysCounter.reminderOfADeletedContact)
      }
    }
    let owners = recomputed
    guard !owners.isEmpty else { return [:] }
    // Users of one zone share a window, and so its table; rows come user after user, so the
    // table is looked up once per run of a user's rows, not per contact.
    var tables: [UpcomingWindow: BirthdayTable] = [:]
    var tableOfUser: (user: UserID, table: BirthdayTable?)?
    var birthdays = 0
    let queries = UpcomingBirthdaysQueries(tx: batch.tx)
    try queries.forEachContactBirthday(of: owners) { user, contact, bytes in
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
      add(table.birthday(contactID: contact, utf8: bytes), for: user, malformed: .contactBirthdayMalformed)
    }
    var remindersRead = 0
    try queries.forEachOpenReminder(of: owners) { user, reminder in
      guard let window = windows[user] else { return }
      remindersRead += 1
      add(window.reminder(reminder), for: user, malformed: .reminderDueOnMalformed)
    }
    batch.counts.addRead(UpcomingBirthdaysCounter.contactBirthdays, birthdays)
    batch.counts.addRead(UpcomingBirthdaysCounter.openReminders, remindersRead)
    return wanted
  }
}
