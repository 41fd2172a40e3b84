/// What to do with one `contact_enrichments` row, given what is stored.
public enum EnrichmentWrite: Sendable, Equatable {
  case none
  /// A new row: `seen_at` null, so the app shows it under "Enrichment Updates".
  case insert
  /// A new value (`seen_at` back to null: the user has not seen this one), or only a new
  /// confidence (`seen_at` kept: nothing new to show).
  case update(isNewToUser: Bool)

  /// The stored row's value and confidence, when there is one.
  public static func decide(_ proposed: EnrichmentValue, stored: (value: String?, confidence: Double?)?)
    -> Self
  {
    guard let stored else { return .insert }
    if stored.value != proposed.value { return .update(isNewToUser: true) }
    if let confidence = stored.confidence, abs(confidence - proposed.confidence) < 1e-9 { return .none }
    return .update(isNewToUser: false)
  }

  public var isNewToUser: Bool {
    switch self {
    case .insert: true
    case .update(let isNew): isNew
    case .none: false
    }
  }
}
