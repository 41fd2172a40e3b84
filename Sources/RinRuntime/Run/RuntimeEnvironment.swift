import Foundation

/// The facts of the process a run lives in. Tests shorten the lease; nothing else varies.
public struct RuntimeEnvironment: Sendable {
  public var host: String
  public var pid: Int32
  public var variables: [String: String]
  /// How long a lease lives without renewal: a crashed holder blocks others at most this long
  /// (on its own host, not at all: a dead pid is noticed at once).
  public var leaseTTLSeconds: Int64
  /// The real clock, for leases and the ledger (never `--now`, which may be in the past).
  public var wallClock: @Sendable () -> Double

  public init(
    host: String = ProcessInfo.processInfo.hostName,
    pid: Int32 = getpid(),
    variables: [String: String] = ProcessInfo.processInfo.environment,
    leaseTTLSeconds: Int64 = 60,
    wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.host = host
    self.pid = pid
    self.variables = variables
    self.leaseTTLSeconds = leaseTTLSeconds
    self.wallClock = wallClock
  }

  var wallSeconds: Int64 { Int64(wallClock()) }

  /// Seconds on the wall clock since `start` (a `wallClock()` reading), to the millisecond: how
  /// long a run took, as summaries, logs and the ledger report it.
  func secondsSince(_ start: Double) -> Double { ((wallClock() - start) * 1000).rounded() / 1000 }

  /// Whether a process with this pid exists on this host.
  static func processExists(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}
