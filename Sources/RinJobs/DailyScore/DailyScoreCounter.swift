import RinRuntime

/// daily-score's own keys in its summary's `skipped`.
enum DailyScoreCounter: JobCounter {
  case milestonePromptSuppressed(MilestoneRule.Suppression)

  var key: String {
    switch self {
    case .milestonePromptSuppressed(let why): "score milestone prompt: \(why.rawValue)"
    }
  }
}
