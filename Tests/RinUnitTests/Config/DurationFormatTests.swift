import RinConfiguration
import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("Durations", .onItsOwnThread)
struct DurationFormatTests {
  @Test(arguments: [
    ("7d", Duration.seconds(7 * 86_400)), ("48h", .seconds(48 * 3_600)), ("30m", .seconds(1_800)),
    ("90s", .seconds(90)), ("2w", .seconds(14 * 86_400)), ("1h30m", .seconds(5_400)),
    ("1d2h3m4s", .seconds(93_784)), ("250ms", .milliseconds(250)), ("0s", .zero),
  ])
  func parses(text: String, expected: Duration) throws {
    #expect(try DurationFormat.parse(text) == expected)
    #expect(Duration(configString: text) == expected)
  }

  @Test(arguments: [
    ("7d", "7d"), ("90d", "90d"), ("48h", "2d"), ("90s", "1m30s"), ("2w", "14d"),
    ("1h30m", "1h30m"), ("1500ms", "1s500ms"), ("0m", "0s"),
  ])
  func roundTrips(text: String, canonical: String) throws {
    let parsed = try DurationFormat.parse(text)
    #expect(parsed.configString == canonical)
    #expect(try DurationFormat.parse(canonical) == parsed)
  }

  @Test func formatsNegativeAndSubMillisecond() {
    #expect(DurationFormat.format(.seconds(-90)) == "-1m30s")
    #expect(DurationFormat.format(.microseconds(1_500)) == "1ms")
  }

  @Test(arguments: [
    ("7", "'7' has no unit; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"),
    ("", "empty duration; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"),
    ("30m1h", "'30m1h' repeats a unit or lists a smaller unit before a larger one; write e.g. 1h30m"),
    ("1h1h", "'1h1h' repeats a unit or lists a smaller unit before a larger one; write e.g. 1h30m"),
    (
      "3y", "'3y' has unknown unit 'y'; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"
    ),
    ("-3d", "'-3d' is not a duration; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"),
    (
      "1h30",
      "'1h30' has a number without a unit; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"
    ),
    ("99999999999999w", "'99999999999999w' is too large"),
  ])
  func rejects(text: String, message: String) {
    #expect(throws: DurationFormatError(message)) { try DurationFormat.parse(text) }
    #expect(Duration(configString: text) == nil)
  }
}
