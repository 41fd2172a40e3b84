import RinDomain

/// Whether a provider's value is fit to show: providers are input too (docs/CONTRACT.md §5).
enum ProviderValueCheck {
  /// Longer company names or titles are garbage, not data.
  static let maxTextLength = 200

  /// The value to store, or nil when it is unusable.
  static func clean(_ raw: String, for field: EnrichmentField) -> String? {
    let text = String(raw.trimmingWhitespaceAndNewlines)
    guard !text.isEmpty else { return nil }
    switch field {
    case .birthday: return Birthday(text) != nil ? text : nil  // the data contract's two forms
    case .company, .title:
      return text.count <= maxTextLength && !text.unicodeScalars.contains(where: isControl) ? text : nil
    case .rinUser: return nil
    }
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control
  }
}

extension String {
  fileprivate var trimmingWhitespaceAndNewlines: Substring {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = self[start...].lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<end]
  }
}
