import Foundation
import RinDomain

/// The facts of the process a run lives in. Tests shorten the lease; nothing else varies.
public struct RuntimeEnvironment: Sendable {
  public var host: String
  public var pid: Int32
  public var variables: [String: String]
  /// How long a lease lives without renewal: a crashed holder blocks others at most this long
  /// (on its own host, not at all: a dead pid is noticed at once).
  public var leaseTTL: Duration
  /// The real clock, for leases and the ledger (never `--now`, which may be in the past).
  public var wallClock: WallClock

  public init(
    host: String = ProcessInfo.processInfo.hostName,
    pid: Int32 = getpid(),
    variables: [String: String] = ProcessInfo.processInfo.environment,
    leaseTTL: Duration = .seconds(60),
    wallClock: WallClock = .system
  ) {
    self.host = host
    self.pid = pid
    self.variables = variables
    self.leaseTTL = leaseTTL
    self.wallClock = wallClock
  }

  /// Now, on the wall clock.
  public var now: UTCInstant { wallClock.now }

  /// A `running` row without a heartbeat for three lease lifetimes belongs to a dead process.
  public var staleBefore: UTCInstant { now - leaseTTL * 3 }

  /// Whether a process with this pid exists on this host.
  static func processExists(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}
