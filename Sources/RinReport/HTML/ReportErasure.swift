import RinDomain
import RinJobs
import RinRuntime
import RinStorage

/// The report's "Erasure" section (docs/OPERATIONS.md "Erasure"): what `rinjobs erasure` finds
/// when the report is made, and what history-retention erased per day in the period.
public struct ReportErasure: Sendable, Encodable {
  public struct Day: Sendable, Encodable, Equatable {
    public var day: String
    public var accounts = 0
    public var contacts = 0
    public var rows = 0
    public var swept = 0
  }

  /// The check now, with the default window.
  public var check: ErasureCheckResult
  public var days: [Day]

  static func build(storage: Storage, now: UTCInstant, ledger: [OperatorReport.LedgerRow]) throws
    -> ReportErasure
  {
    let deletedBy = now - ErasureWindows.checkWindow
    let tables = try storage.lingeringRows(deletedBy: deletedBy)
    var days: [String: Day] = [:]
    for (record, counts) in ledger where record.job == .job(.historyRetention) && !record.dryRun {
      guard let details = counts?.details[HistoryRetentionDetails.self] else { continue }
      let day = CalendarDate(utcInstant: record.startedAt).description
      var entry = days[day] ?? Day(day: day)
      entry.accounts += details.accountsErased ?? 0
      entry.contacts += details.contactsErased ?? 0
      entry.rows += details.erasedRows ?? 0
      entry.swept += details.erasureSweepRowsDeleted ?? 0
      days[day] = entry
    }
    return ReportErasure(
      check: ErasureCheckResult(
        deletedBy: deletedBy, tables: tables.map { .init(table: $0.table, rows: $0.rows) }),
      days: days.values.sorted { $0.day < $1.day })
  }
}
