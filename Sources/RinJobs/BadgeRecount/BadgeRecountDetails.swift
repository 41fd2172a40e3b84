import RinDomain
import RinRuntime

/// badge-recount's details (docs/JOBS.md).
public struct BadgeRecountDetails: JobDetails {
  /// Users whose stored badge counts differed from the recount.
  @AsText public var badgeDriftUsers: Int? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case badgeDriftUsers = "badge_drift_users"
  }
}
