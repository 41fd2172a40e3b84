import RinDomain
import RinStorage

/// Which dates `rinjobs backfill` runs, and why it leaves the others: one run per date, in
/// order, judged by what the ledger says of each date's earlier real, unsharded runs. Pure.
public struct BackfillPlan: Sendable, Equatable {
  public enum Reprocess: String, Sendable, CaseIterable {
    /// Every date without a succeeded run: never run, failed or interrupted (the default, so that
    /// running the same command again continues where it stopped).
    case missing
    /// Only dates whose latest run failed or was interrupted.
    case failed
    /// Every date, again.
    case all
  }

  public enum Action: Sendable, Equatable {
    case run(why: String)
    case skip(why: String)
  }

  public struct Day: Sendable, Equatable {
    public var date: CalendarDate
    public var action: Action
  }

  /// What the ledger says of one date.
  public struct History: Sendable, Equatable {
    public var succeededRunID: RunID?
    public var latest: (id: RunID, status: RunRecord.Status)?

    public init(succeededRunID: RunID? = nil, latest: (id: RunID, status: RunRecord.Status)? = nil) {
      self.succeededRunID = succeededRunID
      self.latest = latest
    }

    public static func == (a: History, b: History) -> Bool {
      a.succeededRunID == b.succeededRunID && a.latest?.id == b.latest?.id
        && a.latest?.status == b.latest?.status
    }
  }

  public var days: [Day]

  /// The dates from `from` to `to` (both included), oldest first or, `backwards`, newest first.
  public static func dates(from: CalendarDate, to: CalendarDate, backwards: Bool) -> [CalendarDate] {
    let forward = (0...max(0, from.days(until: to))).map { from.adding(days: $0) }
    return backwards ? forward.reversed() : forward
  }

  public static func make(
    _ dates: [CalendarDate], history: [CalendarDate: History], reprocess: Reprocess
  ) -> BackfillPlan {
    BackfillPlan(
      days: dates.map { date in
        Day(date: date, action: action(history[date] ?? History(), reprocess: reprocess))
      })
  }

  static func action(_ history: History, reprocess: Reprocess) -> Action {
    let unfinished: Set<RunRecord.Status> = [.failed, .interrupted, .abandoned, .running]
    switch reprocess {
    case .all:
      return .run(why: history.latest == nil ? "never ran" : "--reprocess all")
    case .missing:
      if let id = history.succeededRunID { return .skip(why: "succeeded in run \(id)") }
      guard let latest = history.latest else { return .run(why: "never ran") }
      return .run(why: "run \(latest.id) \(latest.status.rawValue)")
    case .failed:
      guard let latest = history.latest else { return .skip(why: "never ran (--reprocess missing runs it)") }
      guard unfinished.contains(latest.status) else {
        return .skip(why: "run \(latest.id) \(latest.status.rawValue)")
      }
      return .run(why: "run \(latest.id) \(latest.status.rawValue)")
    }
  }
}
