import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// A statement carries its values where they are written (issue 42): no list of arguments to keep
/// in step with the `?`s by hand.
@Suite("SQL fragments bind each value where it is written", .onItsOwnThread)
struct SQLFragmentTests {
  @Test func valuesAreBoundInTheOrderTheyAppear() {
    let day = CalendarDate(year: 2026, month: 11, day: 28)!
    let fragment: SQLFragment =
      "UPDATE t SET n = n + \(Int64(3)), day = \(day) WHERE name = \(.text("acme")) AND at < \(UTCInstant(seconds: 9))"
    #expect(fragment.text == "UPDATE t SET n = n + ?, day = ? WHERE name = ? AND at < ?")
    #expect(fragment.arguments == [.integer(3), .text("2026-11-28"), .text("acme"), .integer(9)])
  }

  /// A condition used twice binds its values twice, each time where it stands.
  @Test func aFragmentSplicedTwiceBindsItsValuesTwice() {
    let spent: SQLFragment = "CASE WHEN day = \(.text("d")) THEN n ELSE 0 END"
    let fragment: SQLFragment = "SET n = \(spent) + \(1), x = \(2) WHERE \(spent) + \(1) <= \(10)"
    #expect(
      fragment.text
        == "SET n = CASE WHEN day = ? THEN n ELSE 0 END + ?, x = ? WHERE CASE WHEN day = ? THEN n ELSE 0 END + ? <= ?"
    )
    #expect(
      fragment.arguments == [.text("d"), .integer(1), .integer(2), .text("d"), .integer(1), .integer(10)])
  }

  /// Trusted SQL text (a column, a dialect's expression) is written, never bound.
  @Test func literalTextIsWrittenNotBound() {
    let column = "c.user_id"
    let fragment: SQLFragment = "SELECT \(literal: column) FROM c WHERE \(literal: column) = \(nil as Int64?)"
    #expect(fragment.text == "SELECT c.user_id FROM c WHERE c.user_id = ?")
    #expect(fragment.arguments == [.null])
  }

  @Test func joinedKeepsEachFragmentsValuesAndPutsTheSeparatorBetween() {
    let parts: [SQLFragment] = ["a = \(1)", "b = \(2)", "c IS NULL"]
    let joined = parts.joined(separator: " AND ")
    #expect(joined.text == "a = ? AND b = ? AND c IS NULL")
    #expect(joined.arguments == [.integer(1), .integer(2)])
    #expect(([] as [SQLFragment]).joined(separator: ", ").text.isEmpty)
  }

  /// An empty list still makes an `IN (…)` that parses, and matches nothing.
  @Test func aListBindsEachValueAndAnEmptyListIsNull() {
    let list = SQLDialect.list([Int64(4), 5, 6])
    #expect(list.text == "?, ?, ?")
    #expect(list.arguments == [.integer(4), .integer(5), .integer(6)])
    #expect(SQLDialect.list([Int64]()).arguments == [.null])
  }
}
