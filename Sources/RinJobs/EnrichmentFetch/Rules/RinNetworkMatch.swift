import RinDomain

/// The Rin-network source (docs/CONTRACT.md §3.3): a contact is a Rin user when one of its phone
/// numbers, in E.164, is a live user's verified `phone_e164` — never the owner's own.
public enum RinNetworkMatch {
  public enum Outcome: Sendable, Equatable {
    case none
    case user(UserID)
    /// The owner saved their own number, and no other user matched.
    case ownNumber
    /// The contact's numbers belong to several users: linking any one would be a guess.
    case ambiguous
  }

  /// - Parameter usersByPhone: for each of the contact's numbers, the live users that verified it.
  public static func resolve(owner: UserID, usersByPhone: [[UserID]]) -> Outcome {
    let all = Set(usersByPhone.joined())
    let others = all.subtracting([owner])
    switch others.count {
    case 0: return all.contains(owner) ? .ownNumber : .none
    case 1: return others.first.map(Outcome.user) ?? .none
    default: return .ambiguous
    }
  }
}
