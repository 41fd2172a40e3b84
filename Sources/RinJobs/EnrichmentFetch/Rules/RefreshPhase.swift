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
///
/// Phases alone do not spread the answers that live several periods: a first night asks every
/// key at once, and its matches (90 days) would all come due in the same third period, so every
/// third month would ask them all again (the year at S: 28–30 k lookups a night in such a month
/// against 13–16 k in the two others). So a key's *first* answer is kept for its TTL less a
/// number of periods its key gives (`firstExpiry`), from none to all but one: the first night's
/// answers come due over `k` periods, and each keeps its place from then on (asked again every
/// `k` periods, as its TTL alone would). Not every answer is aligned to its key's periods: a key
/// in books of owners of different phases is asked by the first visit before it expires, up to
/// a period early, which would move it out of its key's periods and cost a second ask to bring
/// it back (a quarter to a half more lookups; `bench/tools/refresh_sim.py`).
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

  /// When the first answer to `key` (no cache row had it) asked at `now` expires: `now + ttl`
  /// less the key's share of whole periods (`firstPeriodsLess`). A later answer is kept for its
  /// TTL.
  public func firstExpiry(of key: String, askedAt now: UTCInstant, ttl: Duration) -> UTCInstant {
    let periods = ttl.components.seconds / (periodDays * Self.day)
    return now + ttl - .seconds(firstPeriodsLess(key, periods: periods) * periodDays * Self.day)
  }

  /// How many of its `periods` whole periods a key's first answer is kept less: a hash of the
  /// key (FNV-1a) in `0..<periods`, so that one night's keys fall on every value; 0 for an answer
  /// shorter than two periods.
  public func firstPeriodsLess(_ key: String, periods: Int64) -> Int64 {
    guard periods >= 2 else { return 0 }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int64(hash % UInt64(periods))
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
