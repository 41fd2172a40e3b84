import RinDomain
import RinRuntime

/// What the jobs that walk owners count alike, under the same keys in every summary.
enum OwnerCounter: JobCounter {
  case users
  case usersUnchanged
  case usersExamined(OwnerExamination)
  case ownersWithChangesStampedSinceTheLastNight
  case contacts

  var key: String {
    switch self {
    case .users: "users"
    case .usersUnchanged: "users unchanged"
    case .usersExamined(let reason): "users examined (\(reason.rawValue))"
    case .ownersWithChangesStampedSinceTheLastNight: "owners with changes stamped since the last night"
    case .contacts: "contacts"
    }
  }
}

/// Rows several jobs skip for the same reason.
enum SharedSkip: JobCounter {
  case mergeSuggestionWithMalformedConfidence
  /// A message a day before the horizon did not queue.
  case beforeOutboxWindow

  var key: String {
    switch self {
    case .mergeSuggestionWithMalformedConfidence: "merge suggestion with malformed confidence"
    case .beforeOutboxWindow: OutboxHorizon.skipReason
    }
  }
}
