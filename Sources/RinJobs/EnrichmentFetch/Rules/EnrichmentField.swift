/// `contact_enrichments.field`.
public enum EnrichmentField: String, Sendable, Hashable, CaseIterable, Comparable {
  case company
  case title
  case birthday
  /// The contact is this Rin user (value: the user's id), from the Rin network.
  case rinUser = "rin_user"

  /// The fields an external provider can fill.
  public static let providerFields: [EnrichmentField] = [.company, .title, .birthday]

  public static func < (a: EnrichmentField, b: EnrichmentField) -> Bool { a.rawValue < b.rawValue }
}

/// `contact_enrichments.source` of the built-in source.
public enum EnrichmentSource {
  public static let rinNetwork = "rin_network"
}
