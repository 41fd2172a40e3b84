/// Exit codes of docs/CONTRACT.md §4 (sysexits, as cron users expect).
public enum RinExitCode: Int32, Sendable, Codable {
  /// Success, also "not due" and "already done".
  case success = 0
  /// A job failed.
  case failure = 1
  /// Bad usage: options that make no sense.
  case usage = 64
  /// Temporary: another run holds the lease, the database is busy; try again later.
  case temporary = 75
  /// Bad configuration.
  case configuration = 78
}

/// The release, for `--version`: bumped with each entry of CHANGELOG.md that is released.
public enum RinVersion {
  public static let current = "0.1.0-dev"
}
