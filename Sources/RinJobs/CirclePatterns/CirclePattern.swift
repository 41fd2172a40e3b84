import RinDomain

/// What members of a circle can share that makes a non-member look like they belong (docs/CONTRACT.md §3.2).
public enum CirclePattern: String, Sendable, Hashable, CaseIterable {
  /// A registrable domain of a work address (free-mail domains never count).
  case emailDomain = "email_domain"
  /// A geographic area code with its country calling code, `+1-415`.
  case areaCode = "area_code"
  /// A family name, trimmed, case- and diacritic-folded.
  case familyName = "family_name"
}

/// `circle_suggestions.status`.
public enum CircleSuggestionStatus: String, Sendable {
  case open, dismissed, accepted, superseded
}
