import RinDomain

extension HistoryRetentionQueries {
  /// One window of the lookup cache's sweep (`LookupCacheSweep`): the next `limit` rows by key
  /// from `start` (inclusive) within `keyHigh`, of which those expired at `now` are deleted.
  /// Returns how many were deleted and where the next window starts (nil once the range is
  /// done), so that every row of the range is read once however many are deleted.
  public func deleteExpiredLookups(
    keyHigh: ClosedRange<Int64>, from start: LookupCacheKey.RowKey, expiredAt now: UTCInstant, limit: Int
  ) throws -> (deleted: Int, next: LookupCacheKey.RowKey?) {
    let inRange: SQLFragment = """
      (key_high, key_low) >= (\(.integer(start.high)), \(.integer(start.low)))
        AND key_high <= \(.integer(keyHigh.upperBound))
      """
    var end: LookupCacheKey.RowKey?
    try sql.forEachRow(
      """
      SELECT key_high, key_low FROM enrichment_lookups WHERE \(inRange)
      ORDER BY key_high, key_low LIMIT 1 OFFSET \(.integer(Int64(max(limit, 1) - 1)))
      """
    ) { row in
      if let high = row.int64(0), let low = row.int64(1) { end = LookupCacheKey.RowKey(high: high, low: low) }
    }
    let window: SQLFragment =
      if let end {
        "\(inRange) AND (key_high, key_low) <= (\(.integer(end.high)), \(.integer(end.low)))"
      } else {
        inRange
      }
    let deleted = try sql.execute("DELETE FROM enrichment_lookups WHERE \(window) AND expires_at <= \(now)")
    changes.record(
      "enrichment_lookups", .delete, count: deleted, sample: "\(deleted) answers expired by \(now.seconds)")
    guard let end else { return (deleted, nil) }
    let next =
      end.low == .max
      ? (end.high == keyHigh.upperBound ? nil : LookupCacheKey.RowKey(high: end.high + 1, low: .min))
      : LookupCacheKey.RowKey(high: end.high, low: end.low + 1)
    return (deleted, next)
  }
}

extension HistoryRetentionQueries {
  /// The instant whose position the lookup cache's sweep last reached; nil before the first.
  public func lookupCacheSweptUntil() throws -> UTCInstant? {
    try sql.integerValue(
      "SELECT swept_until AS value FROM lookup_cache_sweeps WHERE cache = 'enrichment_lookups'"
    )
    .map(UTCInstant.init(seconds:))
  }

  public func recordLookupCacheSwept(until instant: UTCInstant) throws {
    try sql.execute(
      """
      INSERT INTO lookup_cache_sweeps (cache, swept_until) VALUES ('enrichment_lookups', \(instant))
      ON CONFLICT (cache) DO UPDATE SET swept_until = excluded.swept_until
      """)
  }
}
