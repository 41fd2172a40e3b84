import Foundation

/// Family names as circle-patterns compares them.
public enum FamilyName {
  /// Trimmed, case- and diacritic-insensitive (`Müller`, ` MULLER `, `muller` → `muller`);
  /// nil when nothing is left.
  public static func normalized(_ raw: String?) -> String? {
    guard let raw else { return nil }
    let trimmed = raw.trimmingWhitespace
    guard !trimmed.isEmpty else { return nil }
    // ASCII text has no diacritics and folds to lower case: Foundation's folding, through
    // NSString and back, would cost a twentieth of circle-patterns' CPU per examined owner.
    if trimmed.utf8.allSatisfy({ $0 < 0x80 }) { return trimmed.lowercased() }
    return String(trimmed).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
