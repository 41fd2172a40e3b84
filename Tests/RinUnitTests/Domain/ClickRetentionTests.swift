import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Invite click retention", .onItsOwnThread)
struct ClickRetentionTests {
  @Test func theCutoffIsNowMinusTheWindowAndIsItselfDeleted() {
    #expect(
      ClickRetention.cutoff(now: 1_000_000, window: .seconds(7 * 86_400))
        == UTCInstant(seconds: 1_000_000 - 604_800))
    #expect(ClickRetention.cutoff(now: 1_000, window: .seconds(0)) == 1_000)
  }

  @Test func aFractionOfASecondNeverDeletesAClickInsideTheWindow() {
    // now − 1.5 s = 998.5: the click at 999 is inside the window, the one at 998 is not.
    #expect(ClickRetention.cutoff(now: 1_000, window: .milliseconds(1_500)) == 998)
    #expect(ClickRetention.cutoff(now: 1_000, window: .milliseconds(1_000)) == 999)
  }
}
