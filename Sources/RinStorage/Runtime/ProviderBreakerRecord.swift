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
  public var runID: RunID
  /// That run's job clock.
  public var updatedAt: UTCInstant

  public init(
    provider: String, isOpen: Bool, openedAt: UTCInstant?, cause: String?, keysDeferred: Int, runID: RunID,
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
    try sql.forEach(
      BreakerRow.self,
      "SELECT \(columns: BreakerRow.Columns.self) FROM provider_breakers \(condition) ORDER BY provider"
    ) { records.append($0.record) }
    return records
  }
}

private struct BreakerRow: DecodableRow {
  enum Columns: Int, RowColumns { case provider, state, openedAt, cause, keysDeferred, runID, updatedAt }
  static let table = "provider_breakers"
  let record: ProviderBreakerRecord

  init(_ row: RowDecoder<Columns>) throws {
    record = ProviderBreakerRecord(
      provider: try row.text(.provider), isOpen: try row.text(.state) == "open",
      openedAt: try row.instantIfPresent(.openedAt), cause: row.textIfPresent(.cause),
      keysDeferred: try row.count(.keysDeferred), runID: try row.integer(.runID),
      updatedAt: try row.instant(.updatedAt))
  }
}
