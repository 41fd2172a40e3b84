/// Where the requests of every worker that calls one provider take their turns, so that together
/// they keep `requests_per_minute` and the day's lookup budget (enrichment-fetch keeps them in
/// the database: `ProviderAllowance`). Without it a client paces only its own requests.
public protocol SharedRequestTurns: Sendable {
  /// How long a request of `lookups` keys waits for its turn (zero or less: it may start now);
  /// nil when sending it would pass the day's budget.
  func take(lookups: Int) async throws -> Duration?

  /// No request of any worker starts within `wait` from now (a 429 asked every caller to wait).
  func holdAll(for wait: Duration) async throws
}
