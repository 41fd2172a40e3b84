/// The confidence band in which a pending merge suggestion asks the user to review it
/// (docs/CONTRACT.md §3.6): at or above 0.70 and below 0.95. Above the band the services merge automatically.
public enum MergeSuggestionBand {
  public static let lower = 0.70
  public static let upper = 0.95

  public enum Verdict: Sendable, Equatable {
    case inBand
    case outsideBand
    /// Null, not a number, or outside 0…1: the row is skipped and counted.
    case malformed
  }

  public static func classify(_ confidence: Double?) -> Verdict {
    guard let confidence, confidence.isFinite, (0...1).contains(confidence) else { return .malformed }
    return confidence >= lower && confidence < upper ? .inBand : .outsideBand
  }
}
