/// What the stub says about one key inside a 200 response.
public enum ProviderStubAnswer: Sendable, Equatable {
  case match(likelihood: Int, person: StubPerson)
  /// A per-item 404.
  case notFound
  /// Another per-item status (e.g. 500 for one key only).
  case itemStatus(Int)
  /// Left out of the response altogether.
  case omitted

  /// A match or a 404: what the provider charges for.
  var isAnswer: Bool {
    switch self {
    case .match, .notFound: true
    case .itemStatus, .omitted: false
    }
  }
}

/// A matched person as the stub reports it.
public struct StubPerson: Sendable, Equatable, Encodable {
  public var company: String?
  public var title: String?
  public var birthday: String?

  public init(company: String? = nil, title: String? = nil, birthday: String? = nil) {
    self.company = company
    self.title = title
    self.birthday = birthday
  }
}
