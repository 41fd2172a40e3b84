import Foundation
import RinTestSupport
import Testing

/// `rinjobs report` end to end: real pipelines on a seeded database, the real executable, and
/// the page opened in headless Chromium, whose rendered DOM must say what the ledger and
/// `score_snapshots` say.
@Suite("rinjobs report in a real browser", .onItsOwnThread)
struct ReportCommandLineTests {
  static let pipelines = ["nightly", "hourly"]

  static func config(_ db: TestDatabase, provider: Bool) throws -> String {
    // The failing config names a provider whose key variable is not set: enrichment-fetch
    // fails (exit 78) with a row in the ledger, as it would in production.
    let enrichment =
      provider
      ? """
      enrichment-fetch:
          provider: {name: acme, url: "http://127.0.0.1:9", api_key_env: RIN_REPORT_TEST_UNSET_KEY}
      """
      : "enrichment-fetch: {}"
    let path = try TestConfigFile.write(
      """
      jobs:
        \(enrichment)
      pipelines:
        nightly:
          schedule: "30 2 * * *"
          timezone: UTC
          jobs: [enrichment-fetch, circle-patterns, daily-score, upcoming-birthdays, badge-recount]
        hourly:
          schedule: "0 * * * *"
          timezone: UTC
          jobs: [badge-recount, attribution-expiry]
      """, storageURL: "rin.sqlite", in: db.directory, name: provider ? "failing.yaml" : "pipelines.yaml")
    return path
  }

  @Test(arguments: Backend.available) func theRenderedReportSaysWhatTheLedgerAndTheScoresSay(backend: Backend)
    async throws
  {
    let browser = try #require(Chromium.path, "install Debian's chromium (scripts/setup.sh does)")
    let db = try TestDatabase(backend, seedUsers: 30, seed: 4)
    let config = try Self.config(db, provider: false)
    for (pipeline, now) in [
      ("nightly", "2026-11-21T02:31:00Z"), ("nightly", "2026-11-22T02:31:00Z"),
      ("hourly", "2026-11-22T03:01:00Z"),
    ] {
      let run = try await db.run(
        "rinjobs",
        ["pipeline", "run", pipeline, "--scheduled", "--config", config, "--now", now])
      #expect(run.exitCode == 0, "\(pipeline) at \(now): \(run.stderr)")
    }
    let failing = try await db.run(
      "rin-enrichment-fetch", ["--config", try Self.config(db, provider: true)])
    #expect(failing.exitCode == 78, "\(failing.stderr)")

    let page = db.directory.path("report.html")
    let written = try await db.run(
      "rinjobs", ["report", "--config", config, "--out", page])
    #expect(written.exitCode == 0, "\(written.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)

    // Self-contained, and no personal data of the seed.
    #expect(!html.lowercased().contains("http:") && !html.lowercased().contains("https:"))
    #expect(html.firstMatch(of: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/) == nil, "no email address")
    let personal = try db.strings(
      """
      SELECT display_name FROM users WHERE display_name IS NOT NULL
      UNION SELECT given_name FROM contacts WHERE given_name IS NOT NULL
      UNION SELECT family_name FROM contacts WHERE family_name IS NOT NULL
      UNION SELECT raw FROM contact_phones WHERE raw IS NOT NULL
      UNION SELECT phone_e164 FROM users WHERE phone_e164 IS NOT NULL
      UNION SELECT address FROM contact_emails WHERE address IS NOT NULL
      """)
    #expect(personal.count > 50)
    // Names as whole words (a short name may be part of an English word); numbers and
    // addresses anywhere.
    let leaked = personal.filter { value in
      guard value.count >= 4 else { return false }
      guard value.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" }) else {
        return html.contains(value)
      }
      let word = "\\b\(NSRegularExpression.escapedPattern(for: value))\\b"
      return html.range(of: word, options: .regularExpression) != nil
    }
    #expect(leaked.isEmpty, "personal values in the report: \(leaked.prefix(5))")

    // Rendered by a real browser: a screenshot with something on it, and the DOM it built.
    let blank = db.directory.path("blank.html")
    try "<!doctype html><title>blank</title>".write(toFile: blank, atomically: true, encoding: .utf8)
    let shot = try await Chromium.screenshot(browser, page, into: db.directory.path("report.png"))
    let blankShot = try await Chromium.screenshot(browser, blank, into: db.directory.path("blank.png"))
    #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
    #expect(
      shot.count > 5 * blankShot.count, "\(shot.count) bytes against \(blankShot.count) for a blank page")
    let dom = try await Chromium.dumpDOM(browser, page)

    for pipeline in Self.pipelines {
      #expect(dom.contains("id=\"pipeline-\(pipeline)\""), "\(pipeline) is on the page")
    }
    let jobs = try db.strings("SELECT DISTINCT job FROM job_runs WHERE job NOT LIKE 'pipeline:%'")
    #expect(jobs.count == 6, "\(jobs)")
    for job in jobs {
      let runs = try db.int("SELECT count(*) FROM job_runs WHERE job = ?", [job])
      let failed = try db.int("SELECT count(*) FROM job_runs WHERE job = ? AND status = 'failed'", [job])
      #expect(Self.number(in: dom, id: "runs-\(job)") == runs, "\(job) runs")
      #expect(Self.number(in: dom, id: "failed-\(job)") == failed, "\(job) failed runs")
    }
    #expect(Self.number(in: dom, id: "failed-enrichment-fetch") == 1)
    #expect(dom.contains("id=\"erasure-summary\""), "the Erasure section is on the page")

    let tiers = try db.strings(
      """
      SELECT tier || '=' || count(*) FROM score_snapshots
      WHERE as_of = (SELECT max(as_of) FROM score_snapshots) GROUP BY tier ORDER BY tier
      """)
    #expect(!tiers.isEmpty)
    #expect(Self.tierCounts(in: dom) == tiers, "score tiers on the page")
  }

  /// The number inside the element with this id.
  static func number(in dom: String, id: String) -> Int? {
    guard let pattern = try? Regex("id=\"\(id)\"[^>]*>([0-9,]+)<"), let match = dom.firstMatch(of: pattern)
    else {
      return nil
    }
    return Int((match.output[1].substring ?? "").replacingOccurrences(of: ",", with: ""))
  }

  /// "tier=count" for each row of the tiers table, as the browser laid it out.
  static func tierCounts(in dom: String) -> [String] {
    guard let start = dom.range(of: "<table id=\"tiers\">"),
      let end = dom.range(of: "</table>", range: start.upperBound..<dom.endIndex)
    else { return [] }
    let table = String(dom[start.upperBound..<end.lowerBound])
    return table.matches(of: /<tr><td>([^<]+)<\/td><td>([0-9,]+)<\/td>/).map {
      "\($0.output.1)=\($0.output.2.replacingOccurrences(of: ",", with: ""))"
    }
  }
}

/// Debian's headless Chromium, for tests of pages.
enum Chromium {
  static var path: String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  static func arguments(_ extra: [String], width: Int = 1100) -> [String] {
    // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
    ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=\(width),2400"]
      + extra
  }

  static func screenshot(_ browser: String, _ page: String, into png: String) async throws -> Data {
    _ = try await run(browser, arguments(["--screenshot=\(png)", URL(fileURLWithPath: page).absoluteString]))
    return try Data(contentsOf: URL(fileURLWithPath: png))
  }

  static func dumpDOM(_ browser: String, _ page: String, width: Int = 1100) async throws -> String {
    try await run(
      browser, arguments(["--dump-dom", URL(fileURLWithPath: page).absoluteString], width: width))
  }

  /// stdout; stderr (Chromium's chatter about D-Bus and GPUs) is dropped.
  /// Waited for on a thread of its own, not on the cooperative pool.
  static func run(_ browser: String, _ arguments: [String]) async throws -> String {
    try await offPool { try runBlocking(browser, arguments) }
  }

  static func runBlocking(_ browser: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
