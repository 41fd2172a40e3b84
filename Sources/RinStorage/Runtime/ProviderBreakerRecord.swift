import RinDomain

/// A provider's circuit breaker as the last real enrichment-fetch run left it (table
/// `provider_breakers`). Ids, counts and a failure's kind only: no key, URL or answer.
public struct ProviderBreakerRecord: Sendable, Equatable {
  public var provider: String
  public var isOpen: Bool
  /// The job clock of the run that opened it; nil when closed.
  public var openedAt: UTCInstant?
  /// What opened it ("unreachable", "timed out", "HTTP 503", …); nil when closed.
  public var cause: String?
  /// Keys the last run left for the next one because the breaker was open.
  public var keysDeferred: Int
  /// The run that wrote this row.
  public var runID: Int64
  /// That run's job clock.
  public var updatedAt: UTCInstant

  public init(
    provider: String, isOpen: Bool, openedAt: UTCInstant?, cause: String?, keysDeferred: Int, runID: Int64,
    updatedAt: UTCInstant
  ) {
    self.provider = provider
    self.isOpen = isOpen
    self.openedAt = openedAt
    self.cause = cause
    self.keysDeferred = keysDeferred
    self.runID = runID
    self.updatedAt = updatedAt
  }
}

extension RuntimeQueries {
  public func providerBreaker(provider: String) throws -> ProviderBreakerRecord? {
    try providerBreakers(where: "WHERE provider = \(.text(provider))").first
  }

  /// Every provider a run has recorded, by name.
  public func providerBreakers() throws -> [ProviderBreakerRecord] {
    try providerBreakers(where: "")
  }

  /// Bookkeeping, like a checkpoint: not reported as a change of the data contract.
  public func saveProviderBreaker(_ record: ProviderBreakerRecord) throws {
    try sql.execute(
      """
      INSERT INTO provider_breakers (provider, state, opened_at, cause, keys_deferred, run_id, updated_at)
      VALUES (\(.text(record.provider)), \(.text(record.isOpen ? "open" : "closed")), \(SQLValue(record.openedAt)), \(SQLValue(record.cause)), \(.integer(Int64(record.keysDeferred))), \(.integer(record.runID)), \(SQLValue(record.updatedAt)))
      ON CONFLICT (provider) DO UPDATE SET state = excluded.state, opened_at = excluded.opened_at,
        cause = excluded.cause, keys_deferred = excluded.keys_deferred, run_id = excluded.run_id,
        updated_at = excluded.updated_at
      """)
  }

  private func providerBreakers(where condition: SQLFragment) throws
    -> [ProviderBreakerRecord]
  {
    var records: [ProviderBreakerRecord] = []
    try sql.forEachRow(
      """
      SELECT provider, state, opened_at, cause, keys_deferred, run_id, updated_at FROM provider_breakers
      \(condition) ORDER BY provider
      """
    ) { row in
      records.append(
        ProviderBreakerRecord(
          provider: row.text(0) ?? "", isOpen: row.text(1) == "open", openedAt: row.instant(2),
          cause: row.text(3), keysDeferred: Int(row.int64(4) ?? 0), runID: row.int64(5) ?? 0,
          updatedAt: row.instant(6) ?? UTCInstant(seconds: 0)))
    }
    return records
  }
}
