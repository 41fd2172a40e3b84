import RinConfiguration
import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("Cron expressions", .onItsOwnThread)
struct CronExpressionTests {
  @Test func fieldsExpandToSortedValues() throws {
    let cron = try CronExpression(parsing: "5,1,3 */6 1-3,15 */4 1-5")
    #expect(cron.text == "5,1,3 */6 1-3,15 */4 1-5")
    #expect(cron.minute.values == [1, 3, 5])
    #expect(cron.hour.values == [0, 6, 12, 18])
    #expect(cron.dayOfMonth.values == [1, 2, 3, 15])
    #expect(cron.month.values == [1, 5, 9])
    #expect(cron.dayOfWeek.values == [1, 2, 3, 4, 5])
    #expect(!cron.dayOfMonth.isWildcard)
    #expect(!cron.dayOfWeek.isWildcard)
  }

  @Test func rangeStepsAndStartSteps() throws {
    let cron = try CronExpression(parsing: "10-30/10 5/6 * * *")
    #expect(cron.minute.values == [10, 20, 30])
    #expect(cron.hour.values == [5, 11, 17, 23])
    #expect(cron.dayOfMonth.isWildcard)
    #expect(cron.dayOfMonth.values == Array(1...31))
    #expect(cron.dayOfWeek.values == Array(0...6))
  }

  @Test func namesAreCaseInsensitiveAndSevenIsSunday() throws {
    let cron = try CronExpression(parsing: "0 9 * jan-Mar,DEC mon-fri")
    #expect(cron.month.values == [1, 2, 3, 12])
    #expect(cron.dayOfWeek.values == [1, 2, 3, 4, 5])
    #expect(try CronExpression(parsing: "0 0 * * 7").dayOfWeek.values == [0])
    #expect(try CronExpression(parsing: "0 0 * * 5-7").dayOfWeek.values == [0, 5, 6])
    #expect(try CronExpression(parsing: "0 0 * * SUN,sat").dayOfWeek.values == [0, 6])
  }

  @Test(arguments: [
    ("@yearly", "0 0 1 1 *"), ("@annually", "0 0 1 1 *"), ("@monthly", "0 0 1 * *"),
    ("@weekly", "0 0 * * 0"), ("@daily", "0 0 * * *"), ("@midnight", "0 0 * * *"),
    ("@hourly", "0 * * * *"),
  ])
  func macrosExpand(macro: String, expansion: String) throws {
    let cron = try CronExpression(parsing: macro)
    let expected = try CronExpression(parsing: expansion)
    #expect(cron.text == macro)
    #expect(cron.minute == expected.minute)
    #expect(cron.hour == expected.hour)
    #expect(cron.dayOfMonth == expected.dayOfMonth)
    #expect(cron.month == expected.month)
    #expect(cron.dayOfWeek == expected.dayOfWeek)
  }

  @Test func macroValues() throws {
    let weekly = try CronExpression(parsing: "@weekly")
    #expect(weekly.minute.values == [0])
    #expect(weekly.hour.values == [0])
    #expect(weekly.dayOfWeek.values == [0])
    #expect(weekly.dayOfMonth.isWildcard)
    #expect(try CronExpression(parsing: "@HOURLY").hour.values == Array(0...23))
  }

  @Test func dayOrRuleWhenBothDayFieldsAreRestricted() throws {
    let both = try CronExpression(parsing: "0 0 13 * FRI")
    #expect(both.matchesDay(month: 6, dayOfMonth: 13, weekday: 2))
    #expect(both.matchesDay(month: 6, dayOfMonth: 14, weekday: 5))
    #expect(!both.matchesDay(month: 6, dayOfMonth: 14, weekday: 4))
    let weekdaysOnly = try CronExpression(parsing: "0 0 * * FRI")
    #expect(!weekdaysOnly.matchesDay(month: 6, dayOfMonth: 13, weekday: 2))
    #expect(weekdaysOnly.matchesDay(month: 6, dayOfMonth: 14, weekday: 5))
    let summer = try CronExpression(parsing: "0 0 1 JUN-AUG *")
    #expect(!summer.matchesDay(month: 5, dayOfMonth: 1, weekday: 3))
  }

  @Test(
    arguments: [
      ("", nil, "expected 5 fields (minute hour day-of-month month day-of-week) but found 0"),
      ("0 0 * * * *", nil, "expected 5 fields (minute hour day-of-month month day-of-week) but found 6"),
      ("60 * * * *", "minute", "60 is out of range 0-59"),
      ("* 24 * * *", "hour", "24 is out of range 0-23"),
      ("* * 0 * *", "day-of-month", "0 is out of range 1-31"),
      ("* * * 13 *", "month", "13 is out of range 1-12"),
      ("* * * * 8", "day-of-week", "8 is out of range 0-7"),
      ("* * * * FUN", "day-of-week", "'FUN' is not a number or a name SUN-SAT"),
      ("MON * * * *", "minute", "'MON' is not a number"),
      ("1,,2 * * * *", "minute", "empty item in list '1,,2'"),
      ("30-10 * * * *", "minute", "range 30-10 goes backwards; write the smaller value first"),
      (
        "* * * * SAT-SUN", "day-of-week",
        "range SAT-SUN goes backwards; write the smaller value first (use 7 for Sunday at the end of a range)"
      ),
      ("*/x * * * *", "minute", "step 'x' is not a whole number"),
      ("1/2/3 * * * *", "minute", "'1/2/3' has more than one '/'"),
      ("1-2-3 * * * *", "minute", "'1-2-3' is not a value or a range a-b"),
      (
        "0 0 31 APR,JUN *", "day-of-month",
        "day 31 never occurs in the chosen month(s), so this schedule would never fire"
      ),
    ] as [(String, String?, String)])
  func rejects(text: String, field: String?, reason: String) {
    #expect(throws: CronParseError(field: field, reason: reason)) { try CronExpression(parsing: text) }
  }

  @Test func errorDescriptionNamesTheField() {
    let error = CronParseError(field: "minute", reason: "75 is out of range 0-59")
    #expect(error.description == "minute field: 75 is out of range 0-59")
  }

  @Test func februaryTwentyNinthIsAllowed() throws {
    #expect(try CronExpression(parsing: "0 0 29 2 *").dayOfMonth.values == [29])
  }
}
