import Foundation
import RinConfiguration
import RinDomain
import RinTestSupport
import Testing

@testable import RinRuntime

/// One hand-checked row: the next fire times of an expression in a zone from an instant. Each
/// expected time is `YYYY-MM-DDTHH:MMZ`, followed by ` gap` when a spring-forward rule moved it
/// or ` twice` when a fall-back rule kept only its first occurrence. DST instants were checked
/// against Python's zoneinfo, independently of Foundation.
struct FireCase: Sendable, CustomTestStringConvertible {
  let expression: String
  let zone: String
  let from: String
  let expected: [String]

  init(_ expression: String, _ zone: String, from: String, _ expected: [String]) {
    self.expression = expression
    self.zone = zone
    self.from = from
    self.expected = expected
  }

  var testDescription: String { "\(expression) in \(zone) from \(from)" }
}

enum ExpectedFire {
  /// Unix seconds of `YYYY-MM-DDTHH:MMZ`, read by Foundation's own ISO 8601 parser.
  static func instant(_ text: String) -> Int64? {
    let formatter = ISO8601DateFormatter()
    let withSeconds = text.replacingOccurrences(of: "Z", with: ":00Z")
    return formatter.date(from: withSeconds).map { Int64($0.timeIntervalSince1970) }
  }

  static func describe(_ fire: FireTime) -> String {
    let formatter = ISO8601DateFormatter()
    let text = formatter.string(from: Date(timeIntervalSince1970: Double(fire.instant.seconds)))
      .replacingOccurrences(of: ":00Z", with: "Z")
    switch fire.adjustment {
    case .springForwardGap: return text + " gap"
    case .fallBackFirstOccurrence: return text + " twice"
    case .fallBackLastOccurrence: return text + " twice, last"
    case .fallBackSecondOccurrence: return text + " twice, second"
    case nil: return text
    }
  }
}

@Suite("Cron schedule: next fire times in a zone", .onItsOwnThread)
struct CronScheduleTests {
  static let cases: [FireCase] = [
    // Plain fields, lists, steps, names, macros (UTC).
    FireCase(
      "30 2 * * *", "UTC", from: "2026-11-22T00:00Z",
      ["2026-11-22T02:30Z", "2026-11-23T02:30Z", "2026-11-24T02:30Z"]),
    FireCase("30 2 * * *", "UTC", from: "2026-11-22T02:30Z", ["2026-11-22T02:30Z", "2026-11-23T02:30Z"]),
    FireCase("30 2 * * *", "UTC", from: "2026-11-22T02:31Z", ["2026-11-23T02:30Z"]),
    FireCase(
      "*/20 9-10 * * *", "UTC", from: "2026-11-22T09:30Z",
      [
        "2026-11-22T09:40Z", "2026-11-22T10:00Z", "2026-11-22T10:20Z", "2026-11-22T10:40Z",
        "2026-11-23T09:00Z",
      ]),
    FireCase(
      "5,55 */12 * * *", "UTC", from: "2026-11-22T00:00Z",
      [
        "2026-11-22T00:05Z", "2026-11-22T00:55Z", "2026-11-22T12:05Z", "2026-11-22T12:55Z",
        "2026-11-23T00:05Z",
      ]),
    FireCase(
      "0 0 1-31/10 * *", "UTC", from: "2026-01-01T00:00Z",
      [
        "2026-01-01T00:00Z", "2026-01-11T00:00Z", "2026-01-21T00:00Z", "2026-01-31T00:00Z",
        "2026-02-01T00:00Z",
      ]),
    FireCase(
      "0 6 1 JAN,jul *", "UTC", from: "2026-02-01T00:00Z",
      ["2026-07-01T06:00Z", "2027-01-01T06:00Z", "2027-07-01T06:00Z"]),
    FireCase("0 0 * * 7", "UTC", from: "2026-11-23T00:00Z", ["2026-11-29T00:00Z", "2026-12-06T00:00Z"]),
    FireCase(
      "0 9 * * MON-FRI", "UTC", from: "2026-11-20T10:00Z",
      ["2026-11-23T09:00Z", "2026-11-24T09:00Z", "2026-11-25T09:00Z"]),
    FireCase("@hourly", "UTC", from: "2026-11-22T02:22Z", ["2026-11-22T03:00Z", "2026-11-22T04:00Z"]),
    FireCase("@daily", "UTC", from: "2026-12-31T00:01Z", ["2027-01-01T00:00Z", "2027-01-02T00:00Z"]),
    FireCase("@weekly", "UTC", from: "2026-11-22T00:01Z", ["2026-11-29T00:00Z", "2026-12-06T00:00Z"]),
    FireCase("@monthly", "UTC", from: "2026-11-22T00:00Z", ["2026-12-01T00:00Z", "2027-01-01T00:00Z"]),
    FireCase("@yearly", "UTC", from: "2026-11-22T00:00Z", ["2027-01-01T00:00Z", "2028-01-01T00:00Z"]),
    // Months of 28, 29, 30 and 31 days.
    FireCase(
      "0 0 31 * *", "UTC", from: "2026-01-01T00:00Z",
      [
        "2026-01-31T00:00Z", "2026-03-31T00:00Z", "2026-05-31T00:00Z", "2026-07-31T00:00Z",
        "2026-08-31T00:00Z", "2026-10-31T00:00Z", "2026-12-31T00:00Z",
      ]),
    FireCase(
      "0 12 30 * *", "UTC", from: "2026-01-15T00:00Z",
      ["2026-01-30T12:00Z", "2026-03-30T12:00Z", "2026-04-30T12:00Z"]),
    FireCase(
      "0 0 28-31 2 *", "UTC", from: "2027-02-01T00:00Z",
      ["2027-02-28T00:00Z", "2028-02-28T00:00Z", "2028-02-29T00:00Z", "2029-02-28T00:00Z"]),
    FireCase("0 0 29 2 *", "UTC", from: "2025-01-01T00:00Z", ["2028-02-29T00:00Z", "2032-02-29T00:00Z"]),
    // 2100 is not a leap year: eight years between two Feb 29ths.
    FireCase("0 0 29 2 *", "UTC", from: "2096-03-01T00:00Z", ["2104-02-29T00:00Z"]),
    // Both day fields restricted: either one matches (13th of the month or any Friday).
    FireCase(
      "0 9 13 * FRI", "UTC", from: "2026-11-01T00:00Z",
      [
        "2026-11-06T09:00Z", "2026-11-13T09:00Z", "2026-11-20T09:00Z", "2026-11-27T09:00Z",
        "2026-12-04T09:00Z", "2026-12-11T09:00Z", "2026-12-13T09:00Z", "2026-12-18T09:00Z",
      ]),
    FireCase(
      "0 0 29 2 MON", "UTC", from: "2027-02-01T00:00Z",
      [
        "2027-02-01T00:00Z", "2027-02-08T00:00Z", "2027-02-15T00:00Z", "2027-02-22T00:00Z",
        "2028-02-07T00:00Z",
      ]),
    // Fixed offsets without DST.
    FireCase(
      "30 2 * * *", "Asia/Kolkata", from: "2026-11-22T00:00Z", ["2026-11-22T21:00Z", "2026-11-23T21:00Z"]),
    FireCase("0 0 * * *", "Asia/Kathmandu", from: "2026-11-22T00:00Z", ["2026-11-22T18:15Z"]),
    // America/New_York: spring forward 2026-03-08 02:00 → 03:00, fall back 2026-11-01 02:00 → 01:00.
    FireCase(
      "30 2 * * *", "America/New_York", from: "2026-03-07T00:00Z",
      ["2026-03-07T07:30Z", "2026-03-08T07:00Z gap", "2026-03-09T06:30Z"]),
    FireCase(
      "0 * * * *", "America/New_York", from: "2026-03-08T05:00Z",
      ["2026-03-08T05:00Z", "2026-03-08T06:00Z", "2026-03-08T07:00Z gap", "2026-03-08T08:00Z"]),
    FireCase(
      "0,30 2 * * *", "America/New_York", from: "2026-03-08T00:00Z",
      ["2026-03-08T07:00Z gap", "2026-03-09T06:00Z", "2026-03-09T06:30Z"]),
    FireCase(
      "30 1 * * *", "America/New_York", from: "2026-10-31T00:00Z",
      ["2026-10-31T05:30Z", "2026-11-01T05:30Z twice", "2026-11-02T06:30Z"]),
    FireCase(
      "0 * * * *", "America/New_York", from: "2026-11-01T03:30Z",
      ["2026-11-01T04:00Z", "2026-11-01T05:00Z twice", "2026-11-01T07:00Z", "2026-11-01T08:00Z"]),
    // Between the two occurrences of 01:30 nothing fires again.
    FireCase("30 1 * * *", "America/New_York", from: "2026-11-01T06:00Z", ["2026-11-02T06:30Z"]),
    // Europe/London: spring forward 2026-03-29 01:00 → 02:00, fall back 2026-10-25 02:00 → 01:00.
    FireCase(
      "30 1 * * *", "Europe/London", from: "2026-03-28T00:00Z",
      ["2026-03-28T01:30Z", "2026-03-29T01:00Z gap", "2026-03-30T00:30Z"]),
    FireCase(
      "0 1 * * SUN", "Europe/London", from: "2026-03-22T00:00Z",
      ["2026-03-22T01:00Z", "2026-03-29T01:00Z gap", "2026-04-05T00:00Z"]),
    FireCase(
      "30 1 * * *", "Europe/London", from: "2026-10-24T00:00Z",
      ["2026-10-24T00:30Z", "2026-10-25T00:30Z twice", "2026-10-26T01:30Z"]),
    FireCase(
      "0 2 * * *", "Europe/London", from: "2026-10-24T12:00Z", ["2026-10-25T02:00Z", "2026-10-26T02:00Z"]),
    // Australia/Lord_Howe moves its clocks by 30 minutes: 2026-10-04 02:00 → 02:30, 2026-04-05 02:00 → 01:30.
    FireCase(
      "15 2 * * *", "Australia/Lord_Howe", from: "2026-10-02T00:00Z",
      ["2026-10-02T15:45Z", "2026-10-03T15:30Z gap", "2026-10-04T15:15Z"]),
    FireCase(
      "*/10 2 4 10 *", "Australia/Lord_Howe", from: "2026-10-01T00:00Z",
      ["2026-10-03T15:30Z gap", "2026-10-03T15:40Z", "2026-10-03T15:50Z", "2027-10-03T15:00Z"]),
    FireCase(
      "45 1 * * *", "Australia/Lord_Howe", from: "2026-04-03T00:00Z",
      ["2026-04-03T14:45Z", "2026-04-04T14:45Z twice", "2026-04-05T15:15Z"]),
    FireCase(
      "0 2 * * *", "Australia/Lord_Howe", from: "2026-04-03T00:00Z",
      ["2026-04-03T15:00Z", "2026-04-04T15:30Z", "2026-04-05T15:30Z"]),
    // Pacific/Apia skipped 2011-12-30 entirely (−10 → +14): noon that day fires when the gap ends.
    FireCase(
      "0 12 * * *", "Pacific/Apia", from: "2011-12-29T00:00Z",
      ["2011-12-29T22:00Z", "2011-12-30T10:00Z gap", "2011-12-30T22:00Z"]),
  ]

  @Test(arguments: cases)
  func nextFireTimes(_ row: FireCase) throws {
    let schedule = CronSchedule(
      expression: try CronExpression(parsing: row.expression),
      timeZone: try #require(TimeZone(identifier: row.zone)))
    let from = try #require(ExpectedFire.instant(row.from))
    let fires = Array(schedule.fires(from: UTCInstant(seconds: from)).prefix(row.expected.count))
    #expect(fires.map(ExpectedFire.describe) == row.expected)
  }

  @Test func fireTimesAscendAndNeverRepeatAcrossAYearOfEveryZoneRule() throws {
    for zone in ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu"] {
      let schedule = CronSchedule(
        expression: try CronExpression(parsing: "*/15 * * * *"),
        timeZone: try #require(TimeZone(identifier: zone)))
      let from = try #require(ExpectedFire.instant("2026-01-01T00:00Z"))
      let fires = schedule.fires(
        from: UTCInstant(seconds: from), through: UTCInstant(seconds: from + 365 * 86_400))
      #expect(zip(fires, fires.dropFirst()).allSatisfy { $0.instant < $1.instant })
      // 96 a day and the closing instant, less the repeated quarter hours of the fall-back (an
      // hour in New York and London, half an hour on Lord Howe Island). A spring-forward gap
      // loses no real time: its quarter hours all fire once, when the gap ends.
      let adjusted = fires.filter { $0.adjustment != nil }.count
      let expectedLoss = [
        "America/New_York": 4, "Europe/London": 4, "Australia/Lord_Howe": 2, "Asia/Kathmandu": 0,
      ]
      #expect(fires.count == 365 * 96 + 1 - (expectedLoss[zone] ?? -1), "\(zone): \(fires.count)")
      #expect(zone == "Asia/Kathmandu" ? adjusted == 0 : adjusted >= 2, "\(zone)")
    }
  }

  @Test func theGapAndOverlapAreNamedInWords() throws {
    let newYork = CronSchedule(
      expression: try CronExpression(parsing: "30 2 * * *"),
      timeZone: try #require(TimeZone(identifier: "America/New_York")))
    let march8 = try #require(ExpectedFire.instant("2026-03-08T00:00Z"))
    let gap = try #require(newYork.next(from: UTCInstant(seconds: march8)))
    #expect(
      gap.ruleNote
        == "spring forward: 02:30 does not exist on 2026-03-08; fires at 03:00, the first instant after the gap"
    )
    #expect(gap.local.description == "2026-03-08 03:00")
    #expect(gap.offsetSeconds == -4 * 3_600)
    let london = CronSchedule(
      expression: try CronExpression(parsing: "30 1 * * *"),
      timeZone: try #require(TimeZone(identifier: "Europe/London")))
    let october25 = try #require(ExpectedFire.instant("2026-10-25T00:00Z"))
    let overlap = try #require(london.next(from: UTCInstant(seconds: october25)))
    #expect(
      overlap.ruleNote == "fall back: 01:30 happens twice on 2026-10-25; fires at the first (UTC+01:00) only")
    #expect(overlap.slot.description == "2026-10-25T00:30:00Z")
  }

  @Test func slotNamesRoundTrip() throws {
    let instant = UTCInstant(seconds: try #require(ExpectedFire.instant("2026-11-22T02:30Z")))
    #expect(instant.description == "2026-11-22T02:30:00Z")
    #expect(SlotInstant.parse("2026-11-22T02:30:00Z") == instant)
    #expect(SlotInstant.parse("2026-11-22T02:30:00+01:00") == nil)
    #expect(SlotInstant.parse("2026-02-30T02:30:00Z") == nil)
  }
}
