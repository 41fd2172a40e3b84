import RinRuntime
import RinTestSupport
import Testing

@testable import RinReport

/// The textfile's names: every metric under `rinjobs_`, and the four renamed in issue 32 also
/// under their old `rin_` names for one release, with the same values.
@Suite("metrics file", .onItsOwnThread)
struct MetricsFileTests {
  static let facts = MetricsFile.JobFacts(
    job: .job(.enrichmentFetch), lastSuccessAt: 1_790_000_000, lastDurationSeconds: 2.5, lastRunFailed: false,
    failedRuns: 1, itemsRead: 10, itemsWritten: 4, itemsSkipped: 0, usersProcessed: 3,
    provider: {
      var health = ProviderHealth(provider: "acme", available: false, keysDeferred: 7)
      health.dailyLimitReached = true
      return health
    }(),
    skips: ["timeout": 2])

  @Test func theRenamedMetricsAlsoCarryTheirOldNames() {
    let text = MetricsFile.render([Self.facts])
    for (new, old) in [
      (#"rinjobs_provider_up{provider="acme"} 0"#, #"rin_provider_up{provider="acme"} 0"#),
      (
        #"rinjobs_provider_keys_deferred{provider="acme"} 7"#,
        #"rin_provider_keys_deferred{provider="acme"} 7"#
      ),
      (
        #"rinjobs_provider_daily_limit_reached{provider="acme"} 1"#,
        #"rin_provider_daily_limit_reached{provider="acme"} 1"#
      ),
      (
        #"rinjobs_job_skipped_total{job="enrichment-fetch",reason="timeout"} 2"#,
        #"rin_job_skipped_total{job="enrichment-fetch",reason="timeout"} 2"#
      ),
    ] {
      #expect(text.contains(new), "\(text)")
      #expect(text.contains(old), "\(text)")
    }
    #expect(text.contains("# HELP rin_provider_up Deprecated alias of rinjobs_provider_up"), "\(text)")
  }

  @Test func noOtherMetricHasAnOldName() {
    let names = MetricsFile.render([Self.facts]).split(separator: "\n").filter { !$0.hasPrefix("#") }
      .map { String($0.prefix { $0 != "{" && $0 != " " }) }
    let old: Set<String> = [
      "rin_provider_up", "rin_provider_keys_deferred", "rin_provider_daily_limit_reached",
      "rin_job_skipped_total",
    ]
    #expect(Set(names.filter { !$0.hasPrefix("rinjobs_") }) == old)
  }
}
