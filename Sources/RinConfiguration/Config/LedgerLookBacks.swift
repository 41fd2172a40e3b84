/// How far back the commands that read the run ledger look by default: the ledger's retention
/// window (`jobs.history-retention.keep.job_runs`) may not be shorter than the longest, or a
/// default `status` or `report` would find slots whose rows retention deleted and call them
/// missed. `--catch-up` has no default `--max-age`: the command `status` prints reaches back
/// no further than the status look-back.
public enum LedgerLookBacks {
  /// `rinjobs status --look-back`.
  public static let status: Duration = .seconds(7 * 86_400)
  /// `rinjobs report --since`: the report's runs, slots and per-day charts.
  public static let report: Duration = .seconds(30 * 86_400)

  /// The longest of the defaults, and which command it is.
  public static var longest: (duration: Duration, reader: String) {
    status > report ? (status, "rinjobs status --look-back") : (report, "rinjobs report --since")
  }
}
