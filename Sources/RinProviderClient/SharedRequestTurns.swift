/// Where the requests of every worker that calls one provider take their turns, so that together
/// they keep `requests_per_minute` and the day's lookup budget (enrichment-fetch keeps them in
/// the database: `ProviderAllowance`). Without it a client paces only its own requests.
public protocol SharedRequestTurns: Sendable {
  /// The wall-clock time (seconds since 1970) at which a request of `lookups` keys may start,
  /// now or later; nil when sending it would pass the day's budget.
  func take(lookups: Int) async throws -> Double?

  /// No request of any worker starts before `wallSeconds` (a 429 asked every caller to wait).
  func holdAll(until wallSeconds: Double) async throws
}
