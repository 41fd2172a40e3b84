import RinDomain
import Synchronization

/// The demo's wall clock: the simulated instant it was last set to plus the real time since, so
/// that the ledger, leases and the report see a week of runs at their slots' times while each
/// run still takes its real time.
final class DemoClock: Sendable {
  private let offset = Mutex<Int64>(0)

  func set(to instant: UTCInstant) {
    offset.withLock { $0 = (instant.seconds - WallClock.system.now.seconds) * 1_000_000 }
  }

  /// The clock the demo's runs read: the real one, moved by the offset last set.
  var wallClock: WallClock {
    WallClock { [self] in WallClock.system.microsecondsSince1970 + offset.withLock { $0 } }
  }

  var now: UTCInstant { wallClock.now }
}
