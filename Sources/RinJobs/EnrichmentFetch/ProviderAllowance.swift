import Foundation
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// The provider's request turns and daily budget as every worker sees them: in
/// `provider_allowances`, so that concurrent shard workers, on one host or many, together send
/// at most `requests_per_minute` (requests start 60/rpm seconds apart, whoever sends them) and
/// at most `max_lookups_per_day` lookups a UTC day. Times are the hosts' wall clocks: keep them
/// in sync (NTP), as the leases already ask.
struct ProviderAllowance: SharedRequestTurns {
  let storage: Storage
  let provider: String
  let requestsPerMinute: Int
  let maxLookupsPerDay: Int?
  /// The runtime's wall clock, which every worker's turns are times of.
  let wallClock: WallClock

  var intervalMicroseconds: Int64 { 60_000_000 / Int64(max(requestsPerMinute, 1)) }

  func take(lookups: Int) async throws -> Duration? {
    let now = wallClock.microsecondsSince1970
    let day = CalendarDate(utcInstant: UTCInstant(seconds: now / 1_000_000))
    let turn = try storage.write { tx in
      try EnrichmentQueries(tx: tx).takeProviderTurn(
        provider: provider, nowMicroseconds: now,
        intervalMicroseconds: intervalMicroseconds,
        lookups: lookups, day: day, dailyLimit: maxLookupsPerDay)
    }
    switch turn {
    case .startAt(let microseconds): return .microseconds(microseconds - wallClock.microsecondsSince1970)
    case .dailyLimitReached: return nil
    }
  }

  func holdAll(for wait: Duration) async throws {
    let until = wallClock.microsecondsSince1970 + wait.wholeMicroseconds
    try storage.write { tx in
      try EnrichmentQueries(tx: tx).holdProviderRequests(provider: provider, untilMicroseconds: until)
    }
  }
}
