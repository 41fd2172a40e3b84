import RinDomain
import RinStorage

/// attribution-expiry's statements, each in a transaction of its own.
struct AttributionExpiryQueries {
  let tx: StorageTransaction
  private var sql: TransactionSQL { tx.sql }

  /// Deletes up to `limit` raw clicks with `clicked_at <= cutoff`, oldest first; returns how many.
  /// A time that is null or not a number is never `<=` a number, so such a click stays.
  func deleteInviteClicks(clickedAtOrBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    let deleted = try sql.execute(
      """
      DELETE FROM invite_clicks WHERE \(sql.dialect.isIn(
        "id", subquery: "SELECT id FROM invite_clicks WHERE clicked_at <= \(cutoff) ORDER BY clicked_at, id LIMIT \(limit)"))
      """)
    tx.changes.record(
      "invite_clicks", .delete, count: deleted,
      sample: "\(deleted) clicks with clicked_at <= \(cutoff.seconds)")
    return deleted
  }

  /// The earliest `clicked_at` among clicks whose time is a number (the index gives it at once).
  func oldestInviteClick() throws -> UTCInstant? {
    try sql.rows(
      ClickTime.self,
      """
      SELECT \(columns: ClickTime.Columns.self) FROM invite_clicks
      WHERE \(literal: sql.dialect.isNumber("clicked_at")) ORDER BY clicked_at LIMIT 1
      """
    ).first?.clickedAt
  }

  /// Clicks whose `clicked_at` is null or not a number: no window can ever expire them.
  func countInviteClicksWithoutTime() throws -> Int {
    try sql.count(
      "SELECT count(*) AS count FROM invite_clicks WHERE NOT (\(literal: sql.dialect.isNumber("clicked_at")))"
    )
  }

  /// Writes every remaining click again into fresh storage, ids and values unchanged, so that
  /// no deleted click stays readable in the database's files (`SQLDialect.forgettingDeletedRows`:
  /// on SQLite the freed pages are zeroed by secure delete; on PostgreSQL the table's old file
  /// is emptied at commit). Costs one pass over the kept clicks, the last window's. Returns how
  /// many rows were written again; nil in a dry run, whose deletes never reach the files.
  func rewriteInviteClicks() throws -> Int? {
    guard !tx.isDryRun else { return nil }
    // `SELECT *`: a column the services add later is carried over too.
    var rewritten = 0
    for statement in sql.dialect.forgettingDeletedRows(of: "invite_clicks", keptIn: "rin_kept_invite_clicks")
    {
      rewritten = try sql.execute("\(literal: statement)")
    }
    return rewritten
  }
}

/// A click's time, which the services may have written as a fraction of a second: whole
/// seconds, rounded down.
private struct ClickTime: DecodableRow {
  enum Columns: Int, RowColumns { case clickedAt }
  static let table = "invite_clicks"
  let clickedAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws {
    clickedAt = row.doubleIfValid(.clickedAt).map { UTCInstant(seconds: Int64($0.rounded(.down))) }
  }
}
