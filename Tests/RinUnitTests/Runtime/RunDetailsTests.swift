import RinDomain
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

/// A run's details are typed per job, and written as they were when they were text: one object
/// of texts by key, in `--json` and the ledger; read back typed, old rows too.
@Suite("run details", .onItsOwnThread)
struct RunDetailsTests {
  @Test func typedDetailsAreWrittenAsTextsByKey() throws {
    var details = RunDetails()
    details[EnrichmentFetchDetails.self].provider = "acme"
    details[EnrichmentFetchDetails.self].matches = 4
    details[EnrichmentFetchDetails.self].longestWaitForOtherWorkersMS = 250
    details[EnrichmentFetchDetails.self].providerAvailable = false
    details[EnrichmentFetchDetails.self].requestsGivenUp["HTTP 500"] = 2
    details.stopReason = .criticalLoad
    let text = try #require(JSONText.encode(details))
    #expect(
      text
        == #"{"longest_wait_for_other_workers_ms":"250","matches":"4","provider":"acme","provider_available":"false","requests_given_up (HTTP 500)":"2","stop_reason":"critical load"}"#
    )
    #expect(JSONText.decode(RunDetails.self, from: text) == details)
    #expect(JSONText.encode(RunDetails()) == "{}")
  }

  @Test func attributionExpiryDetailsKeepTheirTexts() throws {
    var details = RunDetails()
    details[AttributionExpiryDetails.self].clicksDeletedThrough = UTCInstant("2026-11-15T12:00:00Z")
    details[AttributionExpiryDetails.self].clicksDeleted = 3
    details[AttributionExpiryDetails.self].oldestClickKept = .init(nil)
    details[AttributionExpiryDetails.self].walCheckpoint = .incomplete
    details[BadgeRecountDetails.self].badgeDriftUsers = 0
    #expect(
      details.texts == [
        "clicks_deleted_through": "2026-11-15T12:00:00Z", "clicks_deleted": "3", "oldest_click_kept": "none",
        "wal_checkpoint": "incomplete", "badge_drift_users": "0",
      ])
    #expect(RunDetails(texts: details.texts) == details)
  }

  @Test func aLedgerRowWrittenAsTextIsReadTyped() throws {
    let row =
      #"{"counts":{"read":{},"skipped":{},"users_processed":0},"changes":{},"notifications":{},"details":{"provider":"acme","cache_hits":"1","lookups_requested":"10","matches":"4","no_matches":"6","keys_left_for_next_run":"0"}}"#
    let counts = try #require(JSONText.decode(RunSummary.LedgerCounts.self, from: row))
    let enrichment = counts.details[EnrichmentFetchDetails.self]
    #expect(enrichment.matches == 4 && enrichment.noMatches == 6 && enrichment.cacheHits == 1)
    #expect(enrichment.lookupsRequested == 10 && enrichment.keysLeftForNextRun == 0)
    #expect(counts.details[AttributionExpiryDetails.self] == AttributionExpiryDetails())
  }
}
