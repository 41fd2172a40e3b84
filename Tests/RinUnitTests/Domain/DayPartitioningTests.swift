import RinDomain
import RinTestSupport
import Testing

/// The partitions a window's history is kept in: a tenth of the window each, made ahead, and
/// dropped only once every day in them is past the window.
@Suite("Day partitions of a kept history", .onItsOwnThread)
struct DayPartitioningTests {
  static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

  @Test func aPartitionSpansATenthOfTheWindowAndAtLeastADay() {
    #expect(DayPartitioning.spanDays(windowDays: 400) == 40)
    #expect(DayPartitioning.spanDays(windowDays: 30) == 3)
    #expect(DayPartitioning.spanDays(windowDays: 9) == 1)
    #expect(DayPartitioning.spanDays(windowDays: 0) == 1)
  }

  @Test func theFirstPartitionStartsOnASpanBoundaryAndTheyReachTwoWeeksAhead() {
    let today = Self.day("2025-03-10")
    let spans = DayPartitioning.spansToCreate(existingEnds: [], today: today, spanDays: 3)
    let first = try! #require(spans.first)
    #expect(first.start <= today && today < first.end)
    #expect(first.start.daysSinceEpoch % 3 == 0)
    #expect(zip(spans, spans.dropFirst()).allSatisfy { $0.end == $1.start })
    #expect(spans.allSatisfy { $0.start.days(until: $0.end) == 3 })
    let last = try! #require(spans.last)
    #expect(last.end > today.adding(days: 14))
    #expect(last.start <= today.adding(days: 14))
  }

  @Test func newPartitionsStartWhereTheLastEndsEvenWhenTheSpanChanged() {
    // A window changed from 400 to 30 days: the next partitions are 3 days long, after the
    // 40-day one that exists, never overlapping it.
    let spans = DayPartitioning.spansToCreate(
      existingEnds: [Self.day("2025-03-01"), Self.day("2025-03-21")], today: Self.day("2025-03-15"),
      spanDays: 3)
    #expect(spans.first?.start == Self.day("2025-03-21"))
    #expect(spans.first?.end == Self.day("2025-03-24"))
    #expect(spans.last.map { $0.start <= Self.day("2025-03-29") } == true)
  }

  @Test func nothingIsCreatedWhenPartitionsReachPastTheLookahead() {
    // 40-day spans look 80 days ahead: 2025-06-03.
    let spans = DayPartitioning.spansToCreate(
      existingEnds: [Self.day("2025-06-04")], today: Self.day("2025-03-15"), spanDays: 40)
    #expect(spans.isEmpty)
  }

  @Test func onlyPartitionsWhollyBeforeTheFirstKeptDayLeave() {
    let spans = [
      DayPartitioning.Span(start: Self.day("2025-01-01"), end: Self.day("2025-01-04")),
      DayPartitioning.Span(start: Self.day("2025-01-04"), end: Self.day("2025-01-07")),
      DayPartitioning.Span(start: Self.day("2025-01-07"), end: Self.day("2025-01-10")),
    ]
    // 2025-01-06 is kept: the partition holding it stays with its older days (within a span).
    #expect(DayPartitioning.spansToDrop(spans, firstKeptDay: Self.day("2025-01-06")) == [spans[0]])
    #expect(DayPartitioning.spansToDrop(spans, firstKeptDay: Self.day("2025-01-07")) == [spans[0], spans[1]])
    #expect(DayPartitioning.spansToDrop(spans, firstKeptDay: Self.day("2024-12-31")).isEmpty)
  }

  @Test func aPartitionIsNamedAfterItsFirstDay() {
    let span = DayPartitioning.Span(start: Self.day("2025-03-01"), end: Self.day("2025-03-04"))
    #expect(DayPartitioning.tableName(parent: "score_snapshots", span) == "score_snapshots_from_20250301")
  }
}
