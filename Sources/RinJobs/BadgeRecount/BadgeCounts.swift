import RinDomain

/// The four tab badges (docs/CONTRACT.md §3.6), as numbers.
public struct BadgeCounts: Sendable, Equatable, Codable {
  public var home: Int
  public var circles: Int
  public var score: Int
  public var profile: Int

  public init(home: Int, circles: Int, score: Int, profile: Int) {
    self.home = home
    self.circles = circles
    self.score = score
    self.profile = profile
  }

  public static let zero = BadgeCounts(home: 0, circles: 0, score: 0, profile: 0)
}
