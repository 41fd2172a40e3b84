import Foundation
import RinDomain

/// The Rin Score, `score_v1` (docs/CONTRACT.md §3.1). A new formula gets a new version; this one never
/// changes silently.
public enum ScoreFormula {
  public static let version = "score_v1"

  public struct Components: Sendable, Equatable {
    /// Each 0…100; nil when there is no data for it.
    public var quality: Double?
    public var position: Double?
    public var stability: Double?
    public var trust: Double

    public init(quality: Double?, position: Double?, stability: Double?, trust: Double) {
      self.quality = quality
      self.position = position
      self.stability = stability
      self.trust = trust
    }
  }

  public struct Result: Sendable, Equatable {
    public var components: Components
    public var score: Int
    public var tier: Tier
  }

  static let weights = (quality: 0.35, position: 0.25, stability: 0.20, trust: 0.20)

  public static func components(_ i: ScoreInputs) -> Components {
    let n = Double(i.contacts)
    let quality: Double? =
      i.contacts == 0
      ? nil
      : 100
        * (0.6 * Double(i.complete) / n + 0.2 * Double(i.enriched) / n
          + 0.2 * max(0, 1 - 5 * Double(i.pendingDuplicates) / n))
    let position: Double? =
      i.contacts == 0
      ? nil
      : 100
        * (0.5 * min(1, log(1 + Double(i.rin)) / log(51.0)) + 0.3 * Double(i.organized) / n
          + 0.2 * min(1, Double(i.customCircles) / 5))
    let stability: Double? =
      i.tenureDays < 7 || i.contacts == 0 ? nil : 100 * max(0, 1 - Double(i.churn) / n)
    let trust =
      100
      * (0.4 * (i.phoneVerified ? 1 : 0) + 0.3 * max(0, 1 - Double(i.openSecurityItems) / 3)
        + 0.3 * (i.rin > 0 ? Double(i.mutual) / Double(i.rin) : 0))
    return Components(quality: quality, position: position, stability: stability, trust: trust)
  }

  /// The weighted mean of the present components, weights renormalized over them, rounded
  /// half up (⌊x + 0.5⌋).
  public static func score(_ c: Components) -> Int {
    let parts: [(Double?, Double)] = [
      (c.quality, weights.quality), (c.position, weights.position),
      (c.stability, weights.stability), (c.trust, weights.trust),
    ]
    var sum = 0.0
    var weight = 0.0
    for case (let value?, let w) in parts {
      sum += value * w
      weight += w
    }
    // Rounded to 1e-9 first, so that a mean of exactly x.5 in exact arithmetic is not
    // pushed below it by binary floating point (59.4999999… → 60 as the rule intends).
    let mean = ((sum / weight) * 1e9).rounded() / 1e9
    return Int((mean + 0.5).rounded(.down))
  }

  public static func evaluate(_ inputs: ScoreInputs) -> Result {
    let c = components(inputs)
    let s = score(c)
    return Result(components: c, score: s, tier: Tier(score: s))
  }
}
