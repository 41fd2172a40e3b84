import RinDomain

/// One occurrence the Home tab's Upcoming section shows (docs/CONTRACT.md §3.4): a row of `upcoming_events`.
public struct UpcomingEvent: Sendable, Hashable {
  public enum Kind: String, Sendable, CaseIterable {
    case birthday
    case reminder
  }

  /// What names an occurrence within a user, as the table's key stores it. Text, so that a row
  /// whose kind or date this build cannot read still has a key (and can be deleted).
  public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var kind: String
    /// The contact's id for a birthday, the reminder's id for a reminder.
    public var refID: Int64
    /// `YYYY-MM-DD`, the user's local date.
    public var occursOn: String

    public init(kind: String, refID: Int64, occursOn: String) {
      self.kind = kind
      self.refID = refID
      self.occursOn = occursOn
    }

    public static func < (a: Key, b: Key) -> Bool {
      (a.occursOn, a.kind, a.refID) < (b.occursOn, b.kind, b.refID)
    }

    public var description: String { "\(kind) \(refID) on \(occursOn)" }
  }

  /// A row as the table holds it. The job rewrites `contact_id` and `days_until`;
  /// `dismissed_at` belongs to the app.
  public struct Stored: Sendable, Hashable {
    public var key: Key
    public var contactID: ContactID
    public var daysUntil: Int
    public var isDismissed: Bool

    public init(key: Key, contactID: ContactID, daysUntil: Int, isDismissed: Bool) {
      self.key = key
      self.contactID = contactID
      self.daysUntil = daysUntil
      self.isDismissed = isDismissed
    }
  }

  public var kind: Kind
  public var refID: Int64
  public var occursOn: CalendarDate
  public var contactID: ContactID
  public var daysUntil: Int

  public init(kind: Kind, refID: Int64, occursOn: CalendarDate, contactID: ContactID, daysUntil: Int) {
    self.kind = kind
    self.refID = refID
    self.occursOn = occursOn
    self.contactID = contactID
    self.daysUntil = daysUntil
  }

  public var key: Key { Key(kind: kind.rawValue, refID: refID, occursOn: occursOn.description) }

  /// `a.key < b.key` without building the keys: dates compare as their `YYYY-MM-DD` texts do
  /// (four-digit years) and the kinds as their names do (birthday before reminder).
  static func keyOrder(_ a: UpcomingEvent, _ b: UpcomingEvent) -> Bool {
    if a.occursOn != b.occursOn { return a.occursOn < b.occursOn }
    if a.kind != b.kind { return a.kind == .birthday }
    return a.refID < b.refID
  }
}
