/// Outbox dedupe keys and deep links (docs/CONTRACT.md §2, notifications). One key per event, ever: the key is
/// what makes a rerun or a resumed run unable to notify twice.
public enum Notifications {
  /// The Score tab (docs/CONTRACT.md §2, notifications).
  public static let scoreDeepLink = "rin://score"

  public static func scoreUpdatedKey(user: UserID, asOf: CalendarDate) -> String {
    "\(NotificationKind.scoreUpdated.rawValue):\(user):\(asOf)"
  }
}

extension Notifications {
  /// A contact's detail screen (docs/CONTRACT.md §2, notifications).
  public static func contactDeepLink(_ contactID: ContactID) -> String {
    "rin://contacts/\(contactID)"
  }

  /// One push per reminder per day it falls due, however often the hourly job runs.
  public static func reminderDueKey(reminder: Int64, occursOn: CalendarDate) -> String {
    "\(NotificationKind.reminderDue.rawValue):\(reminder):\(occursOn)"
  }
}
