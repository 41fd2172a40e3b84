/// Unix seconds as the ISO 8601 text the logs, summaries and `history` print
/// (`2026-11-22T02:30:00Z`). Written by hand rather than with Foundation's `ISO8601DateFormatter`,
/// whose first use loads ICU's calendar and number formats: about 2.5 ms a process, paid by every
/// shard worker and cron run (BENCHMARKS.md, session 9).
public enum UTCInstant {
  public static func text(_ seconds: Int64) -> String {
    let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let second = Int(seconds - day * 86_400)
    let date = CalendarDate(daysSinceEpoch: Int(day))
    return "\(date)T\(CalendarDate.pad(second / 3600, 2)):\(CalendarDate.pad(second / 60 % 60, 2)):"
      + "\(CalendarDate.pad(second % 60, 2))Z"
  }
}
