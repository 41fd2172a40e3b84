import RinDomain

/// The label the Score tab shows for a score.
public enum Tier: String, Sendable, Equatable, CaseIterable {
  case building = "Building"
  case fair = "Fair"
  case good = "Good"
  case strong = "Strong"
  case excellent = "Excellent"

  public init(score: Int) {
    switch score {
    case ..<40: self = .building
    case 40..<60: self = .fair
    case 60..<75: self = .good
    case 75..<90: self = .strong
    default: self = .excellent
    }
  }
}
