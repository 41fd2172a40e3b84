/// One item of a bulk request: the lookup key (hex SHA-256 of what is looked up, the item's
/// `id`) and the email or E.164 number the provider needs to find the person.
public struct ProviderLookup: Sendable, Hashable {
  public enum Channel: Sendable, Hashable {
    case email(String)
    case phone(String)
  }

  public var id: String
  public var channel: Channel

  public init(id: String, channel: Channel) {
    self.id = id
    self.channel = channel
  }
}
