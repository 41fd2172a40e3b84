import RinDomain

/// docs/CONTRACT.md §3.2 for one user: which non-members of each circle share a pattern that the
/// circle's members share. Built once per user over all their live contacts.
public struct CirclePatternFinder: Sendable {
  public let thresholds: CirclePatternThresholds
  private let evidence: [ContactID: ContactEvidence]
  /// Contacts holding each value, per pattern: the candidates of a value without a scan.
  private let holders: [CirclePattern: [String: [ContactID]]]

  /// - Parameter contacts: the user's live contacts (deleted ones are never candidates).
  public init(contacts: [ContactEvidence], thresholds: CirclePatternThresholds) {
    self.thresholds = thresholds
    var evidence: [ContactID: ContactEvidence] = [:]
    var holders: [CirclePattern: [String: [ContactID]]] = [:]
    for contact in contacts where evidence[contact.contactID] == nil {
      evidence[contact.contactID] = contact
      for pattern in CirclePattern.allCases {
        for value in contact.values(for: pattern) {
          holders[pattern, default: [:]][value, default: []].append(contact.contactID)
        }
      }
    }
    self.evidence = evidence
    self.holders = holders
  }

  /// Live members of a circle: the ids among `memberIDs` that are live contacts of this user.
  public func liveMemberCount(_ memberIDs: Set<ContactID>) -> Int {
    memberIDs.count { evidence[$0] != nil }
  }

  /// Every group the circle's members justify, in pattern then value order. Candidates are
  /// live contacts that are neither members nor removed from this circle by the user.
  public func groups(circleID: Int64, memberIDs: Set<ContactID>, removedIDs: Set<ContactID>) -> [CircleGroup]
  {
    let members = memberIDs.compactMap { evidence[$0] }
    guard members.count >= thresholds.minMembers else { return [] }
    var groups: [CircleGroup] = []
    for pattern in CirclePattern.allCases {
      for (value, count) in thresholds.sharedValues(of: pattern, among: members) {
        let candidates = (holders[pattern]?[value] ?? []).filter {
          !memberIDs.contains($0) && !removedIDs.contains($0)
        }
        guard candidates.count >= thresholds.minCandidates else { continue }
        groups.append(
          CircleGroup(
            circleID: circleID, pattern: pattern, value: value, contactIDs: candidates,
            confidence: Double(count) / Double(members.count)))
      }
    }
    return groups
  }
}
