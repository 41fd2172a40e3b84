import RinDomain
import RinStorage

/// One contact before it gets its id, with its phone and email rows.
struct ContactDraft {
  /// Why the contact exists: the circle and suggestion generators pick contacts by role.
  enum Role: Equatable {
    case filler
    /// Shares the pattern of group `g` and sits in its circle.
    case member(Int)
    /// Shares the pattern of group `g` but is not in its circle: what circle-patterns suggests.
    case candidate(Int)
    /// Like a candidate, but the user already took it out of the circle (`circle_removals`).
    case removed(Int)
    /// Another Rin user's entry in this address book.
    case rinUser(Int64)
    /// A near-copy of the draft at this index: the pair behind a merge suggestion.
    case duplicate(Int)
  }

  var role: Role = .filler
  var given: String?
  var family: String?
  var display: String?
  var company: String?
  var title: String?
  var birthday: String?
  var source = "device"
  var rinUserID: Int64?
  var editedFields: String?
  var createdAt: UTCInstant = 0
  var updatedAt: UTCInstant?
  var deletedAt: UTCInstant?
  var phones: [(raw: String?, label: String?)] = []
  var emails: [(address: String?, label: String?)] = []

  var isLive: Bool { deletedAt == nil }

  func write(id: Int64, owner: Int64, into sink: RowBuffer) {
    sink.insert(
      .contacts,
      [
        .integer(id), .integer(owner), SQLValue(given), SQLValue(family), SQLValue(display),
        SQLValue(company),
        SQLValue(title), SQLValue(birthday), .text(source), SQLValue(rinUserID), SQLValue(editedFields),
        SQLValue(createdAt), SQLValue(updatedAt), SQLValue(deletedAt),
      ])
    for phone in phones {
      sink.insert(.contactPhones, [.integer(id), SQLValue(phone.raw), SQLValue(phone.label)])
    }
    for email in emails {
      sink.insert(.contactEmails, [.integer(id), SQLValue(email.address), SQLValue(email.label)])
    }
  }
}
