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
