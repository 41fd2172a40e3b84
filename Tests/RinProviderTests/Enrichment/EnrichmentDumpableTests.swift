import CRinShim
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// Issue 52 item 10: once enrichment-fetch holds the provider's key, its process is not
  /// dumpable (no core file with the key, no ptrace by the same user). The run is in this test
  /// process, which stays undumpable afterwards: harmless to the other tests.
  @Suite("enrichment-fetch makes its process undumpable")
  struct EnrichmentDumpableTests {
    @Test func aRunWithAProviderClearsTheDumpableFlag() async throws {
      let f = try await EnrichmentFixture.make(.sqlite)
      defer { Task { await f.stop() } }
      _ = await f.run()
      #expect(rin_is_dumpable() == 0)
    }
  }
}
