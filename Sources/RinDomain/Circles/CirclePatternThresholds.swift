/// The numbers of DESIGN.md §3.2, configurable under `jobs.circle-patterns`.
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
}
