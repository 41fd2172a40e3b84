import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("progress bar line", .onItsOwnThread)
struct ProgressLineTests {
  @Test func showsTheRateAndTheTimeLeft() {
    let line = ProgressBar.line(
      label: "daily-score", unit: "users", done: 400, total: 1_000, rows: 104_000, elapsed: 2)
    #expect(line.hasSuffix("40% 400/1000 users · 200 users/s · 52000 rows/s · 0:03 left"), "\(line)")
  }

  @Test func noRateBeforeAnythingIsDoneAndNoTimeLeftAtTheEnd() {
    #expect(
      !ProgressBar.line(label: "x", unit: "users", done: 0, total: 10, elapsed: 5).contains("/s"))
    #expect(
      !ProgressBar.line(label: "x", unit: "users", done: 10, total: 10, elapsed: 0.05).contains("/s"))
    let done = ProgressBar.line(label: "x", unit: "users", done: 10, total: 10, elapsed: 4)
    #expect(done.hasSuffix("· 2.5 users/s"), "\(done)")
  }

  @Test func longWaitsReadAsHoursMinutesAndSeconds() {
    #expect(ProgressBar.clock(75) == "1:15")
    #expect(ProgressBar.clock(3_725) == "1:02:05")
    #expect(ProgressBar.clock(0.2) == "0:01")
  }
}
