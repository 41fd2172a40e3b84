/// What the provider knows about a matched person. Every field may be missing.
public struct ProviderPerson: Sendable, Hashable, Codable {
  public var company: String?
  public var title: String?
  public var birthday: String?

  public init(company: String? = nil, title: String? = nil, birthday: String? = nil) {
    self.company = company
    self.title = title
    self.birthday = birthday
  }
}
