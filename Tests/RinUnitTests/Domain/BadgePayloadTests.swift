import RinDomain
import RinRuntime
import RinTestSupport
import Testing

@testable import RinJobs

@Suite("Badge payload", .onItsOwnThread)
struct BadgePayloadTests {
  /// The payload is built by hand now; clients still get what `JSONEncoder` wrote before.
  @Test(arguments: [
    BadgeCounts.zero, BadgeCounts(home: 1, circles: 22, score: 0, profile: 3),
    BadgeCounts(home: -1, circles: 0, score: 1, profile: 999_999),
  ])
  func isWhatTheJSONEncoderWrote(_ counts: BadgeCounts) {
    #expect(BadgeNotification.payload(counts) == JSONText.encode(counts))
  }
}
