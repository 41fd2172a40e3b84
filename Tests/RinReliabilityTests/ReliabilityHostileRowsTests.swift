import Foundation
import GRDB
import RinDomain
import RinJobs
import RinNormalize
import RinTestSupport
import Testing

/// docs/CONTRACT.md §5 "a row with a malformed phone, email, birthday, timezone or confidence": every
/// job runs to success over hostile rows, counts what it skipped and why, logs none of the
/// text, and a second run changes nothing.
@Suite("Reliability: hostile input rows", .onItsOwnThread)
struct ReliabilityHostileRowsTests {
  /// Skip reasons each job must report over `HostileRows` (and nothing may crash).
  static let expectedSkips: [String: [String]] = [
    "daily-score": ["merge suggestion with malformed confidence"],
    "circle-patterns": ["invalid email", "invalid phone"],
    "enrichment-fetch": ["contact email malformed", "contact phone malformed"],
    "upcoming-birthdays": [
      "contact birthday malformed", "reminder due_on malformed", "user time zone invalid (UTC date used)",
      "user time zone missing (UTC date used)",
    ],
    "attribution-expiry": ["invite click with missing or malformed clicked_at (kept)"],
    "badge-recount": ["merge suggestion with malformed confidence"],
  ]

  @Test(arguments: Backend.available, ReliabilityJobs.all)
  func everyJobSucceedsOverHostileRowsAndCountsWhatItSkipped(backend: Backend, job: String) async {
    await Checks.offPool { checks in
      let provider = try ReliabilityProvider(for: job)
      defer { provider.stop() }
      let jobsYAML = provider.jobsYAML(batchSize: 500, deleteBatchSize: 5_000)
      let workspace: ReliabilityWorkspace
      switch backend {
      case .sqlite:
        let template = try SeededTemplate(users: 20, seed: 11)
        try HostileRows.plant(in: template.path)
        workspace = try ReliabilityWorkspace(copying: template, jobsYAML: jobsYAML)
      case .postgres:
        workspace = try ReliabilityWorkspace(postgresUsers: 20, seed: 11, jobsYAML: jobsYAML)
        try HostileRows.plant(inPostgres: workspace.dbPath)
      }

      let first = try workspace.run(job)
      checks.expect(first.exitCode == 0, "\(job): \(first.stderr.suffix(2_000))")
      let summary = try checks.require(
        try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
      checks.expect(summary["status"] as? String == "succeeded")
      let skipped = (summary["counts"] as? [String: Any])?["skipped"] as? [String: Int] ?? [:]
      for reason in Self.expectedSkips[job] ?? [] {
        checks.expect((skipped[reason] ?? 0) > 0, "\(job) counts '\(reason)': \(skipped)")
      }
      for marker in HostileRows.personalMarkers {
        checks.expect(
          !first.stderr.contains(marker) && !first.stdout.contains(marker), "\(job) printed personal text")
      }

      let before = try workspace.snapshot()
      let second = try workspace.run(job)
      checks.expect(second.exitCode == 0, "\(job): \(second.stderr.suffix(2_000))")
      let differences = try workspace.snapshot().differences(from: before)
      checks.expect(differences.isEmpty, "\(job): a second run over hostile rows changed \(differences)")
      ReliabilityLevel.report(
        "hostile rows \(job) on \(backend): succeeded, skipped \(skipped.values.reduce(0, +)) rows over \(skipped.count) reasons"
      )
    }
  }

  // The two failures the hostile rows found, pinned where they were fixed.

  @Test func aUserCreatedAtTheEdgesOfTimeHasATenureInsteadOfATrap() throws {
    let window = ScoreWindow(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
    #expect(window.tenureDays(userCreatedAt: .min) > 100_000_000_000)
    #expect(window.tenureDays(userCreatedAt: .max) < 0)
    var inputs = ScoreInputs()
    window.add(
      ScoreContact(createdAt: window.end.advanced(by: -10), deletedAt: nil), userCreatedAt: .max, to: &inputs)
    #expect(inputs.churn == 0)
  }

  @Test func aMegabyteOfDigitsIsNoPhoneNumberAndIsRejectedAtOnce() {
    #expect(PhoneNormalizer.parse(raw: String(repeating: "7", count: 1_000_000), defaultRegion: "GB") == nil)
    #expect(
      PhoneNormalizer.parse(raw: "+1 415 555 0100" + String(repeating: " ", count: 300), defaultRegion: "US")
        == nil)
    #expect(PhoneNormalizer.parse(raw: "+1 415 555 0100", defaultRegion: "US") != nil)
  }
}
