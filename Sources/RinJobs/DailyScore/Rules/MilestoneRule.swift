import RinDomain

/// When reaching a score of 60 may queue an invite prompt (docs/CONTRACT.md §3.1). Pure: the job
/// gathers the facts.
public enum MilestoneRule {
  public static let threshold = 60
  public static let maxPromptsShown = 3
  public static let promptCooldownDays = 7
  public static let dismissalCooldownDays = 7
  public static let shareCooldownDays = 14
  public static let minimumContacts = 10

  public struct Facts: Sendable, Equatable {
    public var score: Int
    /// Whether an earlier snapshot already reached the threshold.
    public var reachedBefore: Bool
    public var promptsShown: Int
    public var lastPromptAt: UTCInstant?
    public var lastDismissedAt: UTCInstant?
    public var lastShareAt: UTCInstant?
    public var liveContacts: Int
    /// The job's clock.
    public var now: UTCInstant

    public init(
      score: Int, reachedBefore: Bool = false, promptsShown: Int = 0, lastPromptAt: UTCInstant? = nil,
      lastDismissedAt: UTCInstant? = nil, lastShareAt: UTCInstant? = nil, liveContacts: Int, now: UTCInstant
    ) {
      self.score = score
      self.reachedBefore = reachedBefore
      self.promptsShown = promptsShown
      self.lastPromptAt = lastPromptAt
      self.lastDismissedAt = lastDismissedAt
      self.lastShareAt = lastShareAt
      self.liveContacts = liveContacts
      self.now = now
    }
  }

  public enum Decision: Sendable, Equatable {
    case queue
    case notReached
    case reachedBefore
    case suppressed(Suppression)
  }

  public enum Suppression: String, Sendable, Equatable, CaseIterable {
    case tooManyPromptsShown = "3 or more prompts shown"
    case promptedRecently = "prompted in the last 7 days"
    case dismissedRecently = "dismissed a prompt in the last 7 days"
    case sharedRecently = "shared an invite in the last 14 days"
    case tooFewContacts = "fewer than 10 live contacts"
  }

  public static func decide(_ f: Facts) -> Decision {
    guard f.score >= threshold else { return .notReached }
    guard !f.reachedBefore else { return .reachedBefore }
    func within(_ instant: UTCInstant?, days: Int64) -> Bool {
      guard let instant else { return false }
      return instant > f.now.advanced(by: -days * 86_400)
    }
    if f.promptsShown >= maxPromptsShown { return .suppressed(.tooManyPromptsShown) }
    if within(f.lastPromptAt, days: Int64(promptCooldownDays)) { return .suppressed(.promptedRecently) }
    if within(f.lastDismissedAt, days: Int64(dismissalCooldownDays)) {
      return .suppressed(.dismissedRecently)
    }
    if within(f.lastShareAt, days: Int64(shareCooldownDays)) { return .suppressed(.sharedRecently) }
    if f.liveContacts < minimumContacts { return .suppressed(.tooFewContacts) }
    return .queue
  }
}
