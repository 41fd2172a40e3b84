import Foundation
import RinDomain
import RinRuntime
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// The provider's shared turns and key claims are times on the runtime's wall clock
  /// (`RuntimeEnvironment.wallClock`), not on one read of the host's own (issue 42).
  @Suite("enrichment-fetch reads the runtime's wall clock")
  struct EnrichmentWallClockTests {
    @Test(arguments: Backend.available) func sharedTurnsAreTimesOnTheRuntimesClock(backend: Backend)
      async throws
    {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      // A clock years from the host's: a turn taken on the host's clock would be far below it.
      let clockStart: Int64 = 1_893_456_000_000_000  // 2030-01-01T00:00:00Z
      let clock = WallClock { clockStart }
      let summary = await f.run(wallClock: clock)
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      #expect(f.stub.requestCount == 4)
      // At 60,000 requests a minute a turn is a millisecond: four turns end 4 ms after the start.
      let next = try f.db.int("SELECT next_request_at FROM provider_allowances")
      #expect(Int64(next) == clockStart + 4 * 1_000)
      #expect(try f.db.int("SELECT lookups_on_day FROM provider_allowances") == 10)
      #expect(try f.db.strings("SELECT day FROM provider_allowances") == ["2030-01-01"])
    }
  }
}
