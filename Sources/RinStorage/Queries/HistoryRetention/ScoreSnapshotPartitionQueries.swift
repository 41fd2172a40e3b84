import RinDomain

/// What one pass over `score_snapshots`' partitions did (or, in a dry run, would do).
public struct SnapshotPartitionChanges: Sendable, Equatable {
  /// Partitions created ahead of the days they hold.
  public var created: [String] = []
  /// Partitions dropped because every day they held was past the window.
  public var dropped: [String] = []
  /// Rows the dropped partitions held, as the planner's statistics count them (no scan).
  public var rowsDropped = 0

  public init() {}
}

/// One partition of `score_snapshots` as the catalog lists it.
struct ListedSnapshotPartition {
  let name: String
  /// First day it holds; nil for the converted table's `MINVALUE` and for `DEFAULT`.
  let start: CalendarDate?
  /// Day after the last it holds; nil for `DEFAULT`.
  let end: CalendarDate?
  let estimatedRows: Int

  var isDefault: Bool { end == nil }

  /// `FOR VALUES FROM ('2025-03-01') TO ('2025-03-04')`, `FROM (MINVALUE) TO ('…')`, `DEFAULT`.
  init(name: String, bound: String, estimatedRows: Int) {
    self.name = name
    self.estimatedRows = estimatedRows
    let quoted = bound.split(separator: "'", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { CalendarDate(String($0.element)) }
    let opensAtMinimum = bound.contains("MINVALUE")
    start = opensAtMinimum ? nil : quoted.first ?? nil
    end = quoted.count == (opensAtMinimum ? 1 : 2) ? quoted.last ?? nil : nil
  }
}

extension HistoryRetentionQueries {
  /// Whether old snapshots leave by dropping partitions here: PostgreSQL, once migrated.
  public func scoreSnapshotsArePartitioned() throws -> Bool {
    guard sql.dialect.hasTablePartitions else { return false }
    return try sql.integerValue(
      "SELECT count(*) AS value FROM pg_class WHERE oid = to_regclass('score_snapshots') AND relkind = 'p'")
      == 1
  }

  /// Creates the partitions of every day from `today` through the lookahead and drops every
  /// partition wholly before `firstKeptDay` (`DayPartitioning`), through the two functions the
  /// migration made (`ScoreSnapshotPartitioning.maintenanceFunctions`), so a role with DML
  /// rights and `EXECUTE` on them suffices. In a dry run nothing changes and the result says
  /// what would.
  public func maintainScoreSnapshotPartitions(today: CalendarDate, firstKeptDay: CalendarDate, spanDays: Int)
    throws -> SnapshotPartitionChanges
  {
    var result = SnapshotPartitionChanges()
    guard try scoreSnapshotsArePartitioned() else { return result }
    let partitions = try listScoreSnapshotPartitions()
    let defaultLast = try partitions.first(where: \.isDefault).flatMap { try lastDay(in: $0.name) }
    let ends = partitions.compactMap(\.end) + (defaultLast.map { [$0.adding(days: 1)] } ?? [])
    for span in DayPartitioning.spansToCreate(existingEnds: ends, today: today, spanDays: spanDays) {
      let name = DayPartitioning.tableName(parent: "score_snapshots", span)
      result.created.append(name)
      guard !isDryRun else { continue }
      _ = try sql.textValue(
        "SELECT rin_create_score_snapshot_partition(\(.text(name)), \(.text(span.start.description)), \(.text(span.end.description)))::text AS value"
      )
    }
    for partition in partitions {
      guard let end = partition.end, DayPartitioning.leavesWhole(end: end, firstKeptDay: firstKeptDay) else {
        continue
      }
      result.dropped.append(partition.name)
      result.rowsDropped += partition.estimatedRows
      guard !isDryRun else { continue }
      _ = try sql.textValue(
        "SELECT rin_drop_score_snapshot_partition(\(.text(partition.name)))::text AS value")
    }
    if !result.dropped.isEmpty {
      changes.record(
        "score_snapshots", .delete, count: result.rowsDropped,
        sample: "\(result.dropped.count) partitions dropped (\(result.dropped.joined(separator: ", ")))")
    }
    return result
  }

  /// Deletes up to `limit` snapshots before `firstKeptDay` from the `DEFAULT` partition, the
  /// one partition that cannot leave whole (it holds any day no partition covered when it was
  /// written: none in production, where partitions are made ahead). Returns how many.
  func deleteDefaultPartitionSnapshots(before firstKeptDay: CalendarDate, limit: Int) throws -> Int {
    // Through the parent, whose statement triggers (the services' or a test's) see the delete.
    let deleted = try sql.execute(
      """
      DELETE FROM score_snapshots WHERE (user_id, as_of) IN (
        SELECT user_id, as_of FROM \(literal: ScoreSnapshotPartitioning.defaultPartition)
        WHERE as_of < \(.text(firstKeptDay.description)) LIMIT \(limit))
      """)
    changes.record("score_snapshots", .delete, count: deleted, sample: "\(deleted) before \(firstKeptDay)")
    return deleted
  }

  func listScoreSnapshotPartitions() throws -> [ListedSnapshotPartition] {
    var partitions: [ListedSnapshotPartition] = []
    try sql.forEachRow(
      """
      SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), greatest(c.reltuples, 0)::bigint
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass('score_snapshots') ORDER BY c.relname
      """
    ) { row in
      partitions.append(
        ListedSnapshotPartition(
          name: row.text(0) ?? "", bound: row.text(1) ?? "", estimatedRows: Int(row.int64(2) ?? 0)))
    }
    return partitions
  }

  private func lastDay(in partition: String) throws -> CalendarDate? {
    try sql.textValue("SELECT max(as_of) AS value FROM \(literal: partition)").flatMap(CalendarDate.init)
  }
}
