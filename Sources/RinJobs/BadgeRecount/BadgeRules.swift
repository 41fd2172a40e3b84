import RinDomain

/// docs/CONTRACT.md §3.6: what each tab badge counts. Pure: the job gathers the inputs.
public enum BadgeRules {
  public struct Inputs: Sendable, Equatable {
    /// Confidences of the user's `pending` merge suggestions, skipped ones included;
    /// nil where the stored value is not a number.
    public var pendingMergeConfidences: [Double?]
    public var openSyncConflicts: Int
    public var pendingAccessRequests: Int
    public var openSecurityItems: Int
    public var scoreChangedAt: UTCInstant?
    public var scoreViewedAt: UTCInstant?

    public init(
      pendingMergeConfidences: [Double?] = [], openSyncConflicts: Int = 0,
      pendingAccessRequests: Int = 0, openSecurityItems: Int = 0, scoreChangedAt: UTCInstant? = nil,
      scoreViewedAt: UTCInstant? = nil
    ) {
      self.pendingMergeConfidences = pendingMergeConfidences
      self.openSyncConflicts = openSyncConflicts
      self.pendingAccessRequests = pendingAccessRequests
      self.openSecurityItems = openSecurityItems
      self.scoreChangedAt = scoreChangedAt
      self.scoreViewedAt = scoreViewedAt
    }
  }

  public struct Result: Sendable, Equatable {
    public var counts: BadgeCounts
    /// Pending suggestions skipped because their confidence was malformed.
    public var malformedConfidences: Int
  }

  public static func counts(_ inputs: Inputs) -> Result {
    var reviewable = 0
    var malformed = 0
    for confidence in inputs.pendingMergeConfidences {
      switch MergeSuggestionBand.classify(confidence) {
      case .inBand: reviewable += 1
      case .outsideBand: break
      case .malformed: malformed += 1
      }
    }
    let counts = BadgeCounts(
      home: reviewable + inputs.openSyncConflicts,
      circles: inputs.pendingAccessRequests,
      score: scoreBadge(changedAt: inputs.scoreChangedAt, viewedAt: inputs.scoreViewedAt),
      profile: inputs.openSecurityItems)
    return Result(counts: counts, malformedConfidences: malformed)
  }

  /// 1 while the latest score change has not been viewed.
  public static func scoreBadge(changedAt: UTCInstant?, viewedAt: UTCInstant?) -> Int {
    guard let changedAt else { return 0 }
    guard let viewedAt else { return 1 }
    return changedAt > viewedAt ? 1 : 0
  }

  /// How clients and reports show a count: no badge, the number, or `99+`.
  public static func display(_ count: Int) -> String? {
    switch count {
    case ...0: nil
    case 1...99: String(count)
    default: "99+"
    }
  }
}
