import Foundation
import RinDomain
import Synchronization

/// The demo's wall clock: the simulated instant it was last set to plus the real time since, so
/// that the ledger, leases and the report see a week of runs at their slots' times while each
/// run still takes its real time.
final class DemoClock: Sendable {
  private let offset = Mutex<Int64>(0)

  private static var realSeconds: Int64 { Int64(Date().timeIntervalSince1970.rounded(.down)) }

  func set(to instant: UTCInstant) {
    offset.withLock { $0 = instant.seconds - Self.realSeconds }
  }

  var now: UTCInstant { UTCInstant(seconds: Self.realSeconds + offset.withLock { $0 }) }
}
