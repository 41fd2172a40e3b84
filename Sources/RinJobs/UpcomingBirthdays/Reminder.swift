import RinDomain

/// A reminder not yet completed, as upcoming-birthdays reads it (`reminders`, docs/CONTRACT.md §2).
public struct Reminder: Sendable, Hashable {
  public var id: Int64
  public var contactID: ContactID
  /// The user-local due date as written: `YYYY-MM-DD`, or anything else the services stored.
  public var dueOn: String?
  /// The contact exists, belongs to the reminder's user and is not deleted.
  public var contactIsLive: Bool

  public init(id: Int64, contactID: ContactID, dueOn: String?, contactIsLive: Bool) {
    self.id = id
    self.contactID = contactID
    self.dueOn = dueOn
    self.contactIsLive = contactIsLive
  }
}
