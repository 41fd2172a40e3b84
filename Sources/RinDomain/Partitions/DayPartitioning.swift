/// Which day-range partitions a table kept for a window of days should have: the rule behind
/// PostgreSQL's partitioned `score_snapshots` (docs/OPERATIONS.md "Retention"). Old history
/// leaves by dropping a whole partition once every day in it is past the window, so a partition
/// spans at most a tenth of the window: what is kept beyond the window stays within 10 % of it.
public enum DayPartitioning {
  /// A partition's days, `start` included, `end` excluded (PostgreSQL's `FROM … TO …`).
  public struct Span: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let start: CalendarDate
    public let end: CalendarDate

    public init(start: CalendarDate, end: CalendarDate) {
      self.start = start
      self.end = end
    }

    public static func < (a: Span, b: Span) -> Bool { a.start < b.start }
    public var description: String { "[\(start), \(end))" }
  }

  /// Days in one partition for a window of `windowDays`: a tenth of it, at least one.
  public static func spanDays(windowDays: Int) -> Int { max(1, windowDays / 10) }

  /// How far ahead of today partitions exist, so that a night's writes always find one even
  /// when retention missed a few runs: two spans, and never less than two weeks.
  public static func lookaheadDays(spanDays: Int) -> Int { max(14, 2 * spanDays) }

  /// The partitions to create so that every day from `today` through the lookahead has one,
  /// after the last of `existing` (whose ends are where new ones start, so a change of window,
  /// which changes the span, never overlaps an existing partition). With none yet, the first
  /// starts at the span boundary on or before `today` (day numbers counted from 1970-01-01).
  public static func spansToCreate(existingEnds: [CalendarDate], today: CalendarDate, spanDays: Int)
    -> [Span]
  {
    let span = max(1, spanDays)
    let horizon = today.adding(days: lookaheadDays(spanDays: span))
    var start =
      existingEnds.max()
      ?? CalendarDate(daysSinceEpoch: today.daysSinceEpoch - positiveModulo(today.daysSinceEpoch, span))
    var created: [Span] = []
    while start <= horizon {
      let end = start.adding(days: span)
      created.append(Span(start: start, end: end))
      start = end
    }
    return created
  }

  /// Whether a partition ending (exclusive) at `end` holds only days before `firstKeptDay`, so
  /// that it leaves whole; one that also holds a kept day stays, with its older days.
  public static func leavesWhole(end: CalendarDate, firstKeptDay: CalendarDate) -> Bool {
    end <= firstKeptDay
  }

  /// The partitions whose every day is before `firstKeptDay`: they leave whole.
  public static func spansToDrop(_ existing: [Span], firstKeptDay: CalendarDate) -> [Span] {
    existing.filter { leavesWhole(end: $0.end, firstKeptDay: firstKeptDay) }.sorted()
  }

  /// The partition's table name: the parent's, then its first day (`score_snapshots_from_20250301`).
  public static func tableName(parent: String, _ span: Span) -> String {
    "\(parent)_from_\(String(span.start.description.filter { $0 != "-" }))"
  }

  private static func positiveModulo(_ value: Int, _ modulus: Int) -> Int {
    ((value % modulus) + modulus) % modulus
  }
}
