/// The provider's answer for one lookup key, from its own per-item `status`.
public enum ProviderItemResult: Sendable, Hashable {
  /// `status: 200`: a person, with how likely the provider thinks it is the right one (0-10).
  case match(likelihood: Int, person: ProviderPerson)
  /// `status: 404`: the provider knows nobody by this email or number.
  case noMatch
  /// Any other per-item status (or a 200 without a usable likelihood): not an answer; the key
  /// stays uncached and is asked again by a later run.
  case failed(status: Int)

  /// Whether this is a paid-for answer that the cache keeps.
  public var isAnswer: Bool {
    switch self {
    case .match, .noMatch: true
    case .failed: false
    }
  }
}
