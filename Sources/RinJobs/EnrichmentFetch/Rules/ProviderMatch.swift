import RinDomain

/// A provider's match for one of a contact's lookup keys, as the cache holds it.
public struct ProviderMatch: Sendable, Equatable {
  public var key: String
  /// 0-10, the provider's own confidence that this is the right person.
  public var likelihood: Int
  public var company: String?
  public var title: String?
  public var birthday: String?
  /// When the provider answered (the cache row's `fetched_at`).
  public var fetchedAt: UTCInstant

  public init(
    key: String, likelihood: Int, company: String?, title: String?, birthday: String?, fetchedAt: UTCInstant
  ) {
    self.key = key
    self.likelihood = likelihood
    self.company = company
    self.title = title
    self.birthday = birthday
    self.fetchedAt = fetchedAt
  }

  func value(of field: EnrichmentField) -> String? {
    switch field {
    case .company: company
    case .title: title
    case .birthday: birthday
    case .rinUser: nil
    }
  }
}
