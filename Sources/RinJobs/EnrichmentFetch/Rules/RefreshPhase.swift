import RinDomain

/// Spreads enrichment-fetch's cache refresh evenly over the nights, by owner.
///
/// Left to their TTLs, the answers of a night's lookups all expire on the same later night: a
/// first night's answers expire together `no_match_ttl` later, and every owner whose answers
/// they are is examined that night, and again a period after (the year at S: a night every 30
/// costing 55 to 130 s of CPU against 0.6 s, BENCHMARKS.md "The year"). Instead each owner has a
/// day of the period, its *phase* (`owner` hashed), and is examined for expiry only on the days
/// of its phase: on such a *visit* every answer of its contacts that would expire before its
/// next visit is asked again, so that none expires in between. A night then refreshes about a
/// period's share of the owners, whatever happened on the nights before.
///
/// An answer is asked again at most a period before it would expire, so a key is paid for as
/// often as before when its TTL is a whole number of periods (the defaults: 30 and 90 days
/// with a 30-day period), and at most one visit early otherwise. Days are UTC days.
public struct RefreshPhase: Sendable, Equatable {
  /// Days between an owner's visits, at least 1.
  public let periodDays: Int64

  static let day: Int64 = 86_400

  /// The period is the shortest cache lifetime in whole days, so that an answer asked at a visit
  /// never expires before the next one.
  public init(shortestTTL: Duration) {
    periodDays = max(1, shortestTTL.components.seconds / Self.day)
  }

  /// The owner's day of the period, in `0..<periodDays`. A multiplicative hash: owners with
  /// consecutive ids (sign-ups of one night) fall on different days.
  public func phase(of owner: UserID) -> Int64 {
    let mixed = UInt64(bitPattern: owner.rawValue) &* 0x9E37_79B9_7F4A_7C15
    return Int64((mixed >> 32) % UInt64(periodDays))
  }

  /// The start of the owner's first visit day after `now`'s day: an examination at `now`
  /// asks again every answer that expires before it.
  public func horizon(owner: UserID, now: UTCInstant) -> UTCInstant {
    let today = Self.dayNumber(now)
    let ahead = (phase(of: owner) - today).modulo(periodDays)
    return UTCInstant(seconds: (today + (ahead == 0 ? periodDays : ahead)) * Self.day)
  }

  /// When an owner whose earliest answer expires at `expiry` is due: the start of its last
  /// visit day on or before `expiry`'s day. At or before `now` means at the next run (an answer
  /// a visit could not ask again, such as one the day's provider budget left out).
  public func due(owner: UserID, expiry: UTCInstant, now: UTCInstant) -> UTCInstant {
    guard expiry > now else { return expiry }
    let day = Self.dayNumber(expiry)
    let behind = (day - phase(of: owner)).modulo(periodDays)
    return UTCInstant(seconds: (day - behind) * Self.day)
  }

  static func dayNumber(_ instant: UTCInstant) -> Int64 {
    instant.seconds >= 0 ? instant.seconds / day : (instant.seconds + 1) / day - 1
  }
}

extension Int64 {
  /// The remainder in `0..<divisor` (Swift's `%` keeps the dividend's sign).
  fileprivate func modulo(_ divisor: Int64) -> Int64 {
    let remainder = self % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }
}
