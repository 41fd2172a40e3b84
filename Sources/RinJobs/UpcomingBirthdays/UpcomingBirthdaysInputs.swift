import RinDomain
import RinRuntime
import RinStorage

/// Each user's occurrences in their window, read for a whole batch with three queries: users'
/// zones, live contacts' birthdays and open reminders, both streamed.
enum UpcomingBirthdaysInputs {
  static func wanted(
    _ batch: UserBatch, now: Int64, windowDays: Int, feb29: Feb29Rule
  ) throws -> [Int64: [UpcomingEvent]] {
    let tx = batch.tx
    var windows: [Int64: UpcomingWindow] = [:]
    for (user, zone) in try tx.userTimeZones(of: batch.userIDs) {
      let day = LocalDay(at: now, zoneName: zone)
      switch day.zone {
      case .valid: break
      case .missing: batch.counts.addSkipped("user time zone missing (UTC date used)")
      case .invalid: batch.counts.addSkipped("user time zone invalid (UTC date used)")
      }
      windows[user] = UpcomingWindow(today: day.date, days: windowDays, feb29: feb29)
    }
    batch.counts.addRead("users", windows.count)

    var wanted: [Int64: [UpcomingEvent]] = [:]
    func add(_ outcome: UpcomingWindow.Outcome, for user: Int64, malformed: String) {
      switch outcome {
      case .upcoming(let event): wanted[user, default: []].append(event)
      case .notUpcoming: break
      case .malformed: batch.counts.addSkipped(malformed)
      case .contactGone: batch.counts.addSkipped("reminder of a deleted contact")
      }
    }
    // Users of one zone share a window, and so its table; rows come user after user, so the
    // table is looked up once per run of a user's rows, not per contact.
    var tables: [UpcomingWindow: BirthdayTable] = [:]
    var tableOfUser: (user: Int64, table: BirthdayTable?)?
    var birthdays = 0
    try tx.forEachContactBirthday(of: batch.userIDs) { user, contact, bytes in
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
    var reminders = 0
    try tx.forEachOpenReminder(of: batch.userIDs) { user, reminder in
      guard let window = windows[user] else { return }
      reminders += 1
      add(window.reminder(reminder), for: user, malformed: "reminder due_on malformed")
    }
    batch.counts.addRead("contact birthdays", birthdays)
    batch.counts.addRead("open reminders", reminders)
    return wanted
  }
}
