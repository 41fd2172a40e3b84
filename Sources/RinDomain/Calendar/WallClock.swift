import Foundation

/// The real time, the one place it is read: leases, the ledger, the provider's shared
/// rate and key claims, and a `Retry-After` date all take a `WallClock`, so that the demo's
/// simulated week and the tests can give them another. `--now` is not this: it names the day a
/// run computes for, and may be in the past. Elapsed times (batches, waits, progress) use a
/// monotonic clock instead, which a wall clock's steps (NTP) cannot make negative.
public struct WallClock: Sendable {
  private let read: @Sendable () -> Int64

  /// - Parameter microsecondsSince1970: reads the time, in microseconds since 1970-01-01 UTC.
  public init(microsecondsSince1970: @escaping @Sendable () -> Int64) {
    read = microsecondsSince1970
  }

  /// The host's clock.
  public static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)) }

  /// Microseconds since 1970-01-01 UTC: what workers sharing a provider's rate compare.
  public var microsecondsSince1970: Int64 { read() }

  /// Seconds since 1970-01-01 UTC, with their fraction (an HTTP date's arithmetic).
  public var secondsSince1970: Double { Double(read()) / 1_000_000 }

  /// Now, to the second (a fraction dropped).
  public var now: UTCInstant {
    let microseconds = read()
    let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
    return UTCInstant(seconds: seconds)
  }
}
