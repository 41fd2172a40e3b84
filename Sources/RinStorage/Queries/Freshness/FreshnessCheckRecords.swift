import RinDomain

/// One output's count in a recorded freshness check (`freshness_checks`): `shard` is `all` or
/// `K/N`.
public struct FreshnessCheckRecord: Sendable, Equatable {
  public var checkedAt: UTCInstant
  public var output: String
  public var shard: String
  public var users: Int
  public var stale: Int
  public var oldest: UTCInstant?

  public init(
    checkedAt: UTCInstant, output: String, shard: String, users: Int, stale: Int, oldest: UTCInstant?
  ) {
    self.checkedAt = checkedAt
    self.output = output
    self.shard = shard
    self.users = users
    self.stale = stale
    self.oldest = oldest
  }
}

extension FreshnessQueries {
  /// Keeps what a check found, replacing a check recorded at the same instant, and forgets
  /// checks before `forgetBefore` (the run ledger's window: the report reads no further back).
  public func record(_ records: [FreshnessCheckRecord], forgetBefore: UTCInstant) throws {
    _ = try sql.executeWrite("DELETE FROM freshness_checks WHERE checked_at < \(forgetBefore)")
    try Self.recordUpsert.execute(
      records.map {
        [
          .instant($0.checkedAt), .text($0.output), .text($0.shard), .integer(Int64($0.users)),
          .integer(Int64($0.stale)), SQLValue($0.oldest),
        ]
      }, on: sql)
  }

  private static let recordUpsert = MultiRowStatement(
    head: "INSERT INTO freshness_checks (checked_at, output, shard, users, stale, oldest) VALUES", columns: 6,
    tail: """
      ON CONFLICT (checked_at, output, shard) DO UPDATE SET users = excluded.users, stale = excluded.stale,
        oldest = excluded.oldest
      """)

  /// The checks recorded in [`from`, `through`], oldest first: the report's days.
  public func records(from: UTCInstant, through: UTCInstant) throws -> [FreshnessCheckRecord] {
    var records: [FreshnessCheckRecord] = []
    try sql.forEach(
      FreshnessCheckRow.self,
      """
      SELECT \(columns: FreshnessCheckRow.Columns.self) FROM freshness_checks
      WHERE checked_at >= \(from) AND checked_at <= \(through) ORDER BY checked_at, output, shard
      """
    ) { records.append($0.record) }
    return records
  }
}

private struct FreshnessCheckRow: DecodableRow {
  enum Columns: Int, RowColumns { case checkedAt, output, shard, users, stale, oldest }
  static let table = "freshness_checks"
  let record: FreshnessCheckRecord

  init(_ row: RowDecoder<Columns>) throws {
    record = FreshnessCheckRecord(
      checkedAt: try row.instant(.checkedAt), output: try row.text(.output), shard: try row.text(.shard),
      users: try row.count(.users), stale: try row.count(.stale), oldest: try row.instantIfPresent(.oldest))
  }
}
