import Foundation
import GRDB
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// docs/CONTRACT.md §3.3: secrets never appear in logs, errors or the ledger; nor do emails or phone
  /// numbers (nor the keys, which are hashes of them).
  @Suite("enrichment-fetch keeps secrets and contact data out of logs")
  struct EnrichmentPrivacyTests {
    @Test(arguments: Backend.available) func logsErrorsSummariesAndTheLedgerCarryNoKeyPhoneOrEmail(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let logs = CapturedLogs()
      var outputs: [String] = []
      func record(_ summary: RunSummary) { outputs.append(JSONText.encode(summary) ?? "") }

      // Every path that logs or reports: retries, give-ups, per-item failures, a dry run, a
      // refused key, a missing key, a run without provider.
      f.stub.enqueue(
        .status(503), .status(503), .status(503), .tooManyRequests(retryAfterSeconds: 1), .malformedJSON)
      f.stub.setAnswer(.itemStatus(500), forLookedUp: "gus@example.com")
      record(await f.run(config: f.config(concurrency: 1), logs: logs))
      record(await f.run(TestClock.options(dryRun: true), logs: logs))
      record(
        await f.run(
          TestClock.options(now: TestClock.now + 60),
          environment: [EnrichmentFixture.apiKeyVariable: "sk-refused-9d8e7f"], logs: logs))
      record(await f.run(TestClock.options(now: TestClock.now + 120), environment: [:], logs: logs))
      record(
        await f.run(
          TestClock.options(now: TestClock.now + 180), config: f.config(provider: false), logs: logs))
      #expect(f.stub.requestCount > 5)

      let ledger = try f.db.strings("SELECT coalesce(counts, '') || ' ' || coalesce(error, '') FROM job_runs")
      #expect(ledger.count == 5)
      let haystack = ([logs.text] + outputs + ledger).joined(separator: "\n").lowercased()
      #expect(haystack.contains("provider requests gave up"))  // the logs were captured at all

      var secrets = [EnrichmentFixture.apiKey, "sk-refused-9d8e7f"]
      secrets +=
        try f.db.strings("SELECT raw FROM contact_phones")
        + f.db.strings("SELECT address FROM contact_emails")
      secrets += try f.db.strings("SELECT phone_e164 FROM users")
      secrets += f.valuesSent + f.stub.records.flatMap(\.ids)
      for secret in Set(secrets) {
        let needle = secret.trimmingCharacters(in: .whitespaces).lowercased()
        #expect(!haystack.contains(needle), "found \(needle) in logs, summaries or the ledger")
      }
      // Digits alone, as a log might print a number without its formatting.
      for number in f.valuesSent where number.hasPrefix("+") {
        #expect(!haystack.contains(String(number.dropFirst())))
      }
    }
  }
}
