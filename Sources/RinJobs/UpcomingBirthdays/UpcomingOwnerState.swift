import RinDomain

/// What upcoming-birthdays keeps of the last time it examined an owner (`upcoming_owner_states`):
/// an owner whose local date, zone, open reminders and settings are the same, and none of whose
/// contacts or events was stamped since, would get exactly the rows already stored
/// (docs/JOBS.md "upcoming-birthdays: what counts as a change").
public struct UpcomingOwnerState: Sendable, Equatable {
  /// The owner's local date (`LocalDay`) the rows were computed for.
  public var today: CalendarDate
  /// `users.timezone` as written (its validity can change only with it).
  public var zone: String?
  /// `UpcomingOwnerState.digest` of the open reminders and the settings.
  public var inputsDigest: Int64
  /// A contact edited, created or deleted, or an event dismissed after this instant makes the
  /// rows stale.
  public var stampsAfter: UTCInstant

  public init(today: CalendarDate, zone: String?, inputsDigest: Int64, stampsAfter: UTCInstant) {
    self.today = today
    self.zone = zone
    self.inputsDigest = inputsDigest
    self.stampsAfter = stampsAfter
  }

  /// Whether this run examines the owner, and why; nil when the stored rows hold unless a row
  /// of the owner's was stamped since (asked of these owners alone).
  public static func examination(
    stored: UpcomingOwnerState?, today: CalendarDate, zone: String?, inputsDigest: Int64, forced: Bool
  ) -> OwnerExamination? {
    if forced { return .forced }
    guard let stored else { return .new }
    // Days until each event count from the local date: a new day moves every one of them.
    if stored.today != today { return .due }
    if stored.zone != zone || stored.inputsDigest != inputsDigest { return .changed }
    return nil
  }

  /// The turn that takes the rows kept for this state to `today`, when only the date differs
  /// (same zone text, reminders and settings) and it moved forward by less than a year
  /// (`UpcomingWindowTurn`); nil when the rows must be computed in full. Whether a contact was
  /// stamped since is asked separately: a stamped owner is computed in full.
  public func turn(
    to today: CalendarDate, zone: String?, inputsDigest: Int64, windowDays: Int, feb29: Feb29Rule
  ) -> UpcomingWindowTurn? {
    guard zone == self.zone, inputsDigest == self.inputsDigest else { return nil }
    return UpcomingWindowTurn(from: self.today, to: today, days: windowDays, feb29: feb29)
  }

  /// An order-free digest of an owner's open reminders as written (id, contact, due date
  /// text) and of the settings that shape the window. Whether a reminder's contact is live is
  /// left out: a contact's deletion has its own stamp.
  public static func digest(
    reminders: [(id: Int64, contactID: ContactID, dueOn: String?)], windowDays: Int, feb29: Feb29Rule
  )
    -> Int64
  {
    var settings = FNV1a()
    settings.add(String(windowDays))
    settings.add(feb29.rawValue)
    var sum = settings.value
    for reminder in reminders {
      var hash = FNV1a()
      hash.add(String(reminder.id))
      hash.add(String(reminder.contactID))
      hash.add(reminder.dueOn)
      // A sum, so that the order the rows come in does not matter.
      sum = sum &+ hash.value
    }
    return Int64(bitPattern: sum)
  }
}
