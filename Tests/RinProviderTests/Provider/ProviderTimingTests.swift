import Foundation
import RinProviderClient
import RinTestSupport
import Testing

@Suite("provider rate-limit waits and backoff", .onItsOwnThread)
struct ProviderTimingTests {
  /// 2026-11-22T12:00:00Z.
  static let now: Double = 1_795_348_800

  @Test func retryAfterInSeconds() {
    #expect(RateLimitWait.seconds(headers: ["retry-after": "7"], now: Self.now) == 7)
    #expect(RateLimitWait.seconds(headers: ["retry-after": " 0 "], now: Self.now) == 0)
  }

  @Test(arguments: [
    "Sun, 22 Nov 2026 12:00:30 GMT", "Sunday, 22-Nov-26 12:00:30 GMT", "Sun Nov 22 12:00:30 2026",
  ])
  func retryAfterAsAnHTTPDateInEachOfItsThreeForms(_ date: String) {
    #expect(RateLimitWait.seconds(headers: ["retry-after": date], now: Self.now) == 30)
  }

  @Test func aDateInThePastMeansNoWait() {
    #expect(
      RateLimitWait.seconds(headers: ["retry-after": "Sun, 22 Nov 2026 11:00:00 GMT"], now: Self.now) == 0)
  }

  @Test func rateLimitResetAsSecondsOrAsAUnixTime() {
    #expect(RateLimitWait.seconds(headers: ["x-ratelimit-reset": "12"], now: Self.now) == 12)
    #expect(RateLimitWait.seconds(headers: ["x-ratelimit-reset": "1795348845"], now: Self.now) == 45)
  }

  @Test func retryAfterWinsAndGarbageSaysNothing() {
    #expect(
      RateLimitWait.seconds(headers: ["retry-after": "3", "x-ratelimit-reset": "9"], now: Self.now) == 3)
    #expect(
      RateLimitWait.seconds(headers: ["retry-after": "soon", "x-ratelimit-reset": "9"], now: Self.now) == 9)
    #expect(RateLimitWait.seconds(headers: ["retry-after": "-5"], now: Self.now) == nil)
    #expect(RateLimitWait.seconds(headers: ["x-ratelimit-reset": "later"], now: Self.now) == nil)
    #expect(RateLimitWait.seconds(headers: [:], now: Self.now) == nil)
  }

  @Test func backoffDoublesWithJitterBetweenHalfAndAllOfItsCeiling() {
    let low = Backoff(base: 1, cap: 10, random: { 0 })
    let high = Backoff(base: 1, cap: 10, random: { 0.999_999 })
    #expect(low.delay(beforeRetry: 1) == 0.5)
    #expect(low.delay(beforeRetry: 3) == 2)
    #expect(abs(high.delay(beforeRetry: 3) - 4) < 1e-3)
    #expect(low.delay(beforeRetry: 10) == 5)  // capped at 10, half of it at least
    #expect(high.delay(beforeRetry: 80) <= 10)
  }
}
