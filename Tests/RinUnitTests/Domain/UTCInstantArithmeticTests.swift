import RinDomain
import RinTestSupport
import Testing

@Suite("Instants and spans together", .onItsOwnThread)
struct UTCInstantArithmeticTests {
  static let noon: UTCInstant = 1_795_348_800

  @Test func wholeSecondsAddAndSubtractExactly() {
    #expect(Self.noon + .seconds(60) == UTCInstant(seconds: 1_795_348_860))
    #expect(Self.noon - .seconds(86_400) == UTCInstant(seconds: 1_795_262_400))
    #expect(Self.noon + .seconds(-5) == Self.noon - .seconds(5))
    #expect((Self.noon + .seconds(90)) - Self.noon == .seconds(90))
    #expect(Self.noon - (Self.noon + .seconds(90)) == .seconds(-90))
  }

  /// A fraction of a second rounds the result toward the past, whatever the sign.
  @Test func aFractionRoundsTowardThePast() {
    #expect(Self.noon + .milliseconds(1_500) == Self.noon + .seconds(1))
    #expect(Self.noon - .milliseconds(1_500) == Self.noon - .seconds(2))
    #expect(Self.noon + .milliseconds(-1_500) == Self.noon - .seconds(2))
    #expect(Self.noon - .milliseconds(-1_500) == Self.noon + .seconds(1))
    #expect(Self.noon - .nanoseconds(1) == Self.noon - .seconds(1))
    #expect(Self.noon + .nanoseconds(1) == Self.noon)
  }

  @Test func strideInSecondsAndSaturation() {
    #expect(Self.noon.distance(to: Self.noon.advanced(by: 3_600)) == 3_600)
    #expect(Array(stride(from: Self.noon, through: Self.noon.advanced(by: 2), by: 1)).count == 3)
    #expect(UTCInstant.max.saturating(plus: 1) == .max)
    #expect(UTCInstant.min.saturating(plus: -1) == .min)
    #expect(Self.noon.saturating(plus: -60) == Self.noon - .seconds(60))
  }

  @Test func aDateAndItsMidnight() {
    let date = CalendarDate(utcInstant: Self.noon)
    #expect(date.description == "2026-11-22")
    #expect(date.startOfDay == UTCInstant("2026-11-22T00:00:00Z"))
    #expect(CalendarDate(utcInstant: UTCInstant(seconds: -1)).description == "1969-12-31")
  }

  @Test func spansInWholeUnitsRoundTowardZero() {
    #expect(Duration.milliseconds(1_999).wholeSeconds == 1)
    #expect(Duration.milliseconds(-1_999).wholeSeconds == -1)
    #expect(Duration.microseconds(2_500).wholeMilliseconds == 2)
    #expect(Duration.seconds(3).wholeMilliseconds == 3_000)
    #expect(Duration.nanoseconds(2_999).wholeMicroseconds == 2)
    #expect(Duration.seconds(-1.5).wholeMicroseconds == -1_500_000)
  }
}
