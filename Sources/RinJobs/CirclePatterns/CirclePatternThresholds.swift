import RinDomain

/// The numbers of docs/CONTRACT.md §3.2, configurable under `jobs.circle-patterns`.
public struct CirclePatternThresholds: Sendable, Equatable {
  /// Of the members with a valid email, the share that must have the domain.
  public var emailDomainShare: Double
  /// Of the members with a valid phone, the share that must have the area code.
  public var areaCodeShare: Double
  /// Of all live members, the share that must have the family name.
  public var familyNameShare: Double
  /// Live members a circle needs to be examined, and members that must share a value.
  public var minMembers: Int
  /// Candidates a group needs to be suggested.
  public var minCandidates: Int

  public init(
    emailDomainShare: Double = 0.6, areaCodeShare: Double = 0.6, familyNameShare: Double = 0.5,
    minMembers: Int = 3, minCandidates: Int = 3
  ) {
    self.emailDomainShare = emailDomainShare
    self.areaCodeShare = areaCodeShare
    self.familyNameShare = familyNameShare
    self.minMembers = minMembers
    self.minCandidates = minCandidates
  }

  func share(for pattern: CirclePattern) -> Double {
    switch pattern {
    case .emailDomain: emailDomainShare
    case .areaCode: areaCodeShare
    case .familyName: familyNameShare
    }
  }

  /// The values of `pattern` that enough of `members` share to justify a group, in value order,
  /// each with the number of members holding it.
  public func sharedValues(of pattern: CirclePattern, among members: [ContactEvidence]) -> [(
    value: String, count: Int
  )] {
    var matching: [String: Int] = [:]
    var withEvidence = 0
    for member in members {
      if member.counts(for: pattern) { withEvidence += 1 }
      for value in member.values(for: pattern) { matching[value, default: 0] += 1 }
    }
    return matching.sorted { $0.key < $1.key }.filter { _, count in
      count >= minMembers && Double(count) / Double(withEvidence) >= share(for: pattern)
    }.map { (value: $0.key, count: $0.value) }
  }
}
