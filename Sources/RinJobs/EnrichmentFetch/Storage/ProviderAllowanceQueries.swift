import RinDomain
import RinStorage

/// One provider request's place in the rate and the day's budget that every worker calling the
/// provider shares (`provider_allowances`).
enum ProviderTurn: Sendable, Equatable {
  /// The request may start at this wall-clock time (microseconds since 1970), now or later.
  case startAt(microseconds: Int64)
  /// Sending its lookups would pass `max_lookups_per_day` for today (UTC).
  case dailyLimitReached
}

extension EnrichmentQueries {
  /// Takes the provider's next request turn: no earlier than `nowMicroseconds`, and
  /// `intervalMicroseconds` after the turn taken before it by any worker, so that requests of all
  /// workers together keep the provider's rate; and counts `lookups` against `day`'s budget,
  /// unless that would pass `dailyLimit`. One statement, so two workers cannot take one turn:
  /// SQLite's write lock and PostgreSQL's row lock order them.
  func takeProviderTurn(
    provider: String, nowMicroseconds: Int64, intervalMicroseconds: Int64, lookups: Int,
    day: CalendarDate, dailyLimit: Int?
  ) throws -> ProviderTurn {
    let day = SQLValue(day)
    _ = try sql.execute(
      """
      INSERT INTO provider_allowances (provider, next_request_at, day, lookups_on_day) VALUES (\(.text(provider)), 0, \(day), 0)
      ON CONFLICT (provider) DO NOTHING
      """)
    let spentToday: SQLFragment = "CASE WHEN day = \(day) THEN lookups_on_day ELSE 0 END"
    var startAt: Int64?
    // Every expression of SET reads the row as it was: the turn starts at the later of now and
    // the previous turn's end.
    try sql.forEach(
      ProviderTurnTaken.self,
      """
      UPDATE provider_allowances SET
        lookups_on_day = \(spentToday) + \(lookups), day = \(day),
        next_request_at = CASE WHEN next_request_at > \(nowMicroseconds) THEN next_request_at ELSE \(nowMicroseconds) END
          + \(intervalMicroseconds)
      WHERE provider = \(.text(provider)) AND \(spentToday) + \(lookups) <= \(dailyLimit ?? Int.max)
      RETURNING next_request_at - \(intervalMicroseconds) AS start_at
      """
    ) { startAt = $0.startAt }
    guard let startAt else { return .dailyLimitReached }
    return .startAt(microseconds: startAt)
  }

  /// No request of any worker starts before `untilMicroseconds` (a 429's wait).
  func holdProviderRequests(provider: String, untilMicroseconds: Int64) throws {
    _ = try sql.execute(
      "UPDATE provider_allowances SET next_request_at = \(.integer(untilMicroseconds)) WHERE provider = \(.text(provider)) AND next_request_at < \(.integer(untilMicroseconds))"
    )
  }
}

extension EnrichmentQueries {
  /// How long a claim on a key holds: longer than a worker takes to ask for a batch's keys, so
  /// that only a run that died (and somehow kept its lease) leaves one to expire. No worker waits
  /// that long for a claim: it waits a few seconds at most, then leaves the key to its next run.
  static let lookupKeyClaimMicroseconds: Int64 = 600_000_000

  /// Claims `keys` for `runID` for `lookupKeyClaimMicroseconds` from `nowMicroseconds` (wall
  /// clock), unless another run holds an unexpired claim; returns the keys this run holds now.
  func claimLookupKeys(
    provider: String, keys: [String], runID: RunID, nowMicroseconds: Int64
  ) throws -> Set<String> {
    guard !keys.isEmpty else { return [] }
    let until = nowMicroseconds + Self.lookupKeyClaimMicroseconds
    var held: Set<String> = []
    // The upsert returns the rows it wrote, which are the claims this run holds: a claim another
    // run keeps is left alone and not returned. (Read back by a SELECT, the claims cost a first
    // night at S 17.6 s of server time: 100 ms a batch once the table had churned.)
    try Self.keyClaimUpsert.forEachReturned(
      HeldKeyClaim.self,
      rows: keys.map { KeyClaim(provider: provider, lookupKey: $0, runID: runID, claimedUntil: until) },
      on: sql
    ) { held.insert($0.lookupKey) }
    return held
  }

  /// Of `keys`, those another run still claims: unexpired at `nowMicroseconds`, and its run
  /// still holds its lease (a killed run's claims die with its lease).
  func lookupKeysClaimedByOthers(
    provider: String, keys: [String], runID: RunID, nowMicroseconds: Int64
  ) throws -> Set<String> {
    guard !keys.isEmpty else { return [] }
    var claimed: Set<String> = []
    try sql.forEachInBatchReplanned(
      HeldKeyClaim.self,
      """
      SELECT \(columns: HeldKeyClaim.Columns.self) FROM provider_key_claims
      WHERE provider = \(.text(provider)) AND run_id <> \(runID) AND claimed_until >= \(nowMicroseconds)
        AND \(sql.dialect.isIn("lookup_key", subquery: sql.dialect.textSet(keys)))
        AND EXISTS (
          SELECT 1 FROM job_leases l
          WHERE l.run_id = provider_key_claims.run_id AND l.expires_at >= \(nowMicroseconds / 1_000_000))
      """
    ) { claimed.insert($0.lookupKey) }
    return claimed
  }

  /// Lets go of this run's claims on `keys`: their answers are cached, or they are left.
  func releaseLookupKeys(provider: String, keys: [String], runID: RunID) throws {
    guard !keys.isEmpty else { return }
    try sql.executeReplanned(
      """
      DELETE FROM provider_key_claims WHERE provider = \(.text(provider)) AND run_id = \(runID)
        AND \(sql.dialect.isIn("lookup_key", subquery: sql.dialect.textSet(keys)))
      """)
  }

  /// The claim of another run wins while it has not expired (its end is before the new claim's
  /// start, which is the new claim's end less the claim's length) and its run holds a lease; a
  /// claim left by a run that died (its lease taken over or expired and released) is taken over.
  private static let keyClaimUpsert = MultiRowStatement(
    inserting: KeyClaim.self,
    tail: """
      ON CONFLICT (provider, lookup_key) DO UPDATE SET run_id = excluded.run_id,
        claimed_until = excluded.claimed_until
      WHERE provider_key_claims.claimed_until < excluded.claimed_until - \(lookupKeyClaimMicroseconds)
        OR provider_key_claims.run_id = excluded.run_id
        OR NOT EXISTS (SELECT 1 FROM job_leases l WHERE l.run_id = provider_key_claims.run_id)
      RETURNING \(HeldKeyClaim.Columns.quotedNames.joined(separator: ", "))
      """)
}

/// The start of the turn an update of `provider_allowances` took (`RETURNING`).
private struct ProviderTurnTaken: DecodableRow {
  enum Columns: Int, RowColumns { case startAt }
  static let table = "provider_allowances"
  let startAt: Int64

  init(_ row: RowDecoder<Columns>) throws { startAt = try row.integer(.startAt) }
}

/// A run's claim on a lookup key, as the upsert writes it.
private struct KeyClaim: EncodableRow {
  enum Columns: Int, RowColumns { case provider, lookupKey, runID, claimedUntil }
  static let table = "provider_key_claims"
  let provider: String
  let lookupKey: String
  let runID: RunID
  let claimedUntil: Int64

  func encode(to row: inout RowEncoder<Columns>) {
    row[.provider] = .text(provider)
    row[.lookupKey] = .text(lookupKey)
    row[.runID] = .integer(runID)
    row[.claimedUntil] = .integer(claimedUntil)
  }
}

/// A key a run holds a claim on.
private struct HeldKeyClaim: DecodableRow {
  enum Columns: Int, RowColumns { case lookupKey }
  static let table = "provider_key_claims"
  let lookupKey: String

  init(_ row: RowDecoder<Columns>) throws { lookupKey = try row.text(.lookupKey) }
}
