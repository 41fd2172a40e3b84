import Foundation
import RinTestSupport
import Testing

/// What the report must not mislead about (issue 32, item 4): dry runs apart from real runs,
/// durations with decimals, runs spread over an axis fitted to them, a backfill's runs on the
/// days they computed, and superseded slots counted as superseded, not succeeded.
@Suite("The report does not mislead", .onItsOwnThread)
struct ReportTruthTests {
  static func config(_ db: TestDatabase) throws -> String {
    let path = try TestConfigFile.write(
      """
      pipelines:
        scores:
          schedule: "0 * * * *"
          timezone: UTC
          jobs: [daily-score, badge-recount]
      """, storageURL: db.path, in: db.directory)
    return path
  }

  @Test func dryRunsApartDecimalsAFittedAxisBackfillDaysAndSupersededSlots() async throws {
    let db = try TestDatabase(seedUsers: 12, seed: 5)
    let config = try Self.config(db)
    func rinjobs(_ arguments: [String]) async throws -> Executable.Result {
      let run = try await Executable.run("rinjobs", arguments + ["--config", config])
      #expect(run.exitCode == 0, "\(arguments): \(run.stderr)")
      return run
    }
    _ = try await rinjobs(["pipeline", "run", "scores", "--scheduled", "--now", "2026-11-22T08:00:00Z"])
    // Five slots missed, then `--catch-up latest`: four superseded, one run.
    _ = try await rinjobs([
      "pipeline", "run", "scores", "--catch-up", "latest", "--max-age", "330m", "--now",
      "2026-11-22T13:05:00Z",
    ])
    _ = try await rinjobs(["run", "daily-score", "--dry-run", "--as-of", "2026-11-22"])
    _ = try await rinjobs([
      "backfill", "daily-score", "--from", "2026-11-01", "--to", "2026-11-02", "--now",
      "2026-11-22T13:06:00Z",
    ])

    let json = try await rinjobs(["report", "--json", "--now", "2026-11-22T13:10:00Z", "--since", "30d"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let jobs = try #require(report["jobs"] as? [[String: Any]])
    let score = try #require(jobs.first { $0["job"] as? String == "daily-score" })
    #expect(score["dry_runs"] as? Int == 1, "\(score)")
    let runs = try #require(score["runs"] as? [[String: Any]])
    #expect(runs.allSatisfy { $0["dry_run"] as? Bool == false }, "dry runs are not charted")
    #expect(runs.count == 4, "two slots and two backfilled days: \(runs.count)")
    let seconds = runs.compactMap { $0["seconds"] as? Double }
    #expect(seconds.count == 4 && seconds.contains { $0 != $0.rounded() }, "decimals: \(seconds)")
    for run in runs where (run["as_of"] as? String)?.hasPrefix("2026-11-0") == true {
      let placed = try #require(run["placed_at"] as? Int)
      let day = ISO8601DateFormatter().date(from: "\(run["as_of"] as? String ?? "")T00:00:00Z")
      let start = Int(day?.timeIntervalSince1970 ?? 0)
      #expect(placed >= start && placed < start + 86_400, "a backfilled day is placed on it: \(run)")
    }
    let pipelines = try #require(report["pipelines"] as? [[String: Any]])
    let status = try #require(pipelines.first?["status"] as? [String: Any])
    #expect(status["slots_superseded"] as? Int == 4, "\(status)")
    #expect(status["slots_succeeded"] as? Int == 2, "\(status)")

    let text = try await Executable.run(
      "rinjobs", ["status", "--config", config, "--now", "2026-11-22T13:10:00Z"])
    #expect(text.stdout.contains("2 succeeded, 4 superseded"), "\(text.stdout)")

    let page = db.directory.path("report.html")
    _ = try await rinjobs(["report", "--out", page, "--now", "2026-11-22T13:10:00Z", "--since", "30d"])
    let file = try String(contentsOfFile: page, encoding: .utf8)
    #expect(file.contains("<svg"))
    // As a browser builds it, on a desktop and on a phone.
    let browser = try #require(Chromium.path, "install Debian's chromium (scripts/setup.sh does)")
    for width in [1280, 390] {
      try await Self.check(try await Chromium.dumpDOM(browser, page, width: width))
    }
  }

  static func check(_ html: String) async throws {
    #expect(html.contains(#"dry runs, apart (not charted or counted): <span id="dry-daily-score">1</span>"#))
    #expect(html.contains(#"<span id="superseded-scores">4</span> superseded"#))
    #expect(html.contains(#"<td class="ts">"#), "timestamps do not break")
    // The badge-recount chart's points are spread over the plot, not all at its right edge.
    let start = try #require(html.range(of: #"id="badge-recount-seconds-t""#))
    let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
    let svg = String(html[start.lowerBound..<end.lowerBound])
    let xs = try NSRegularExpression(pattern: #"cx="([0-9.]+)""#)
      .matches(in: svg, range: NSRange(svg.startIndex..., in: svg))
      .compactMap { Range($0.range(at: 1), in: svg).flatMap { Double(svg[$0]) } }
    #expect(xs.count >= 2, "\(xs)")
    #expect((xs.max() ?? 0) - (xs.min() ?? 0) > 100, "two runs five hours apart are far apart: \(xs)")
    // Durations with decimals in the last runs' table.
    #expect(html.firstMatch(of: /<td class="n">[0-9]+\.[0-9]{3}<\/td>/) != nil, "durations with decimals")
  }
}
