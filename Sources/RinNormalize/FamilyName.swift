import Foundation

/// Family names as circle-patterns compares them.
public enum FamilyName {
  /// Trimmed, case- and diacritic-insensitive (`Müller`, ` MULLER `, `muller` → `muller`);
  /// nil when nothing is left.
  public static func normalized(_ raw: String?) -> String? {
    guard let raw else { return nil }
    let trimmed = raw.trimmingWhitespace
    guard !trimmed.isEmpty else { return nil }
    return String(trimmed).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
