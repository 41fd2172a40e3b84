import RinDomain

/// What one live contact shows for each pattern, already normalized by the job.
public struct ContactEvidence: Sendable, Equatable {
  public var contactID: ContactID
  /// Registrable domains of the contact's valid addresses, free-mail domains left out.
  public var emailDomains: Set<String>
  /// At least one valid address, free mail included: such a member counts in the email share.
  public var hasEmail: Bool
  /// Geographic area codes (`+1-415`) of the contact's valid numbers.
  public var areaCodes: Set<String>
  /// At least one valid number, with or without an area code: counts in the area-code share.
  public var hasPhone: Bool
  /// Normalized family name, nil when blank.
  public var familyName: String?

  public init(
    contactID: ContactID, emailDomains: Set<String> = [], hasEmail: Bool = false, areaCodes: Set<String> = [],
    hasPhone: Bool = false, familyName: String? = nil
  ) {
    self.contactID = contactID
    self.emailDomains = emailDomains
    self.hasEmail = hasEmail || !emailDomains.isEmpty
    self.areaCodes = areaCodes
    self.hasPhone = hasPhone || !areaCodes.isEmpty
    self.familyName = familyName
  }

  func values(for pattern: CirclePattern) -> Set<String> {
    switch pattern {
    case .emailDomain: emailDomains
    case .areaCode: areaCodes
    case .familyName: familyName.map { [$0] } ?? []
    }
  }

  /// Whether this member counts in the denominator of the pattern's share.
  func counts(for pattern: CirclePattern) -> Bool {
    switch pattern {
    case .emailDomain: hasEmail
    case .areaCode: hasPhone
    case .familyName: true
    }
  }
}
