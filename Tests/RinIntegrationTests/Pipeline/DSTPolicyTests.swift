import Foundation
import RinTestSupport
import Testing

/// `pipelines.<name>.dst` through `rinjobs plan` (the schedule `pipeline run --scheduled` uses),
/// against fire times checked by hand: New York (a one-hour shift) and Lord Howe (a 30-minute
/// one). 2026: New York springs forward on Mar 8 at 02:00 EST and falls back on Nov 1 at 02:00
/// EDT; Lord Howe falls back on Apr 5 at 02:00 (+11 → +10:30) and springs forward on Oct 4 at
/// 02:00 (+10:30 → +11).
@Suite("DST policy per pipeline", .onItsOwnThread)
struct DSTPolicyTests {
  static func plan(_ yaml: String, _ pipeline: String, from: String, count: Int) async throws -> [(
    String, String?
  )] {
    let folder = try TemporaryDirectory()
    let config = try TestConfigFile.write(yaml, in: folder)
    let result = try await Executable.run(
      "rinjobs", ["plan", pipeline, "--config", config, "--from", from, "--count", "\(count)", "--json"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let fires = ((object?["pipelines"] as? [[String: Any]])?.first?["fires"] as? [[String: Any]]) ?? []
    return fires.map { ($0["utc"] as? String ?? "", $0["rule"] as? String) }
  }

  static func yaml(_ schedule: String, _ zone: String, gap: String, repeat: String) -> String {
    TestConfigFile.pipelines(
      "p", schedule: schedule, jobs: ["badge-recount"], "timezone: \(zone)",
      "dst: {gap: \(gap), repeat: \(`repeat`)}")
  }

  @Test func newYorkGapShiftsOrSkips() async throws {
    let shift = try await Self.plan(
      Self.yaml("30 2 * * *", "America/New_York", gap: "shift", repeat: "first"), "p", from: "2026-03-07",
      count: 3)
    #expect(shift.map(\.0) == ["2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"])
    #expect(shift[1].1 == "spring_forward_gap")
    let skip = try await Self.plan(
      Self.yaml("30 2 * * *", "America/New_York", gap: "skip", repeat: "first"), "p", from: "2026-03-07",
      count: 2)
    #expect(skip.map(\.0) == ["2026-03-07T07:30:00Z", "2026-03-09T06:30:00Z"], "no fire on Mar 8")
  }

  @Test func newYorkRepeatFirstLastOrBoth() async throws {
    func fires(_ rule: String, count: Int) async throws -> [(String, String?)] {
      try await Self.plan(
        Self.yaml("30 1 * * *", "America/New_York", gap: "shift", repeat: rule), "p", from: "2026-11-01",
        count: count)
    }
    #expect(try await fires("first", count: 2).map(\.0) == ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
    #expect(try await fires("last", count: 2).map(\.0) == ["2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"])
    #expect(try await fires("last", count: 1).first?.1 == "fall_back_last_occurrence")
    let both = try await fires("both", count: 3)
    #expect(both.map(\.0) == ["2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"])
    #expect(both.map(\.1) == ["fall_back_first_occurrence", "fall_back_second_occurrence", nil])
  }

  @Test func lordHoweHalfHourGapAndRepeat() async throws {
    let zone = "Australia/Lord_Howe"
    // 02:15 does not exist on Oct 4: the gap is 02:00–02:30 local, 15:30Z on Oct 3.
    let shift = try await Self.plan(
      Self.yaml("15 2 * * *", zone, gap: "shift", repeat: "first"), "p", from: "2026-10-02T15:00:00Z",
      count: 3)
    #expect(shift.map(\.0) == ["2026-10-02T15:45:00Z", "2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"])
    let skip = try await Self.plan(
      Self.yaml("15 2 * * *", zone, gap: "skip", repeat: "first"), "p", from: "2026-10-02T15:00:00Z", count: 2
    )
    #expect(skip.map(\.0) == ["2026-10-02T15:45:00Z", "2026-10-04T15:15:00Z"])
    // 01:45 happens twice on Apr 5: at +11 (14:45Z) and at +10:30 (15:15Z).
    let both = try await Self.plan(
      Self.yaml("45 1 * * *", zone, gap: "shift", repeat: "both"), "p", from: "2026-04-04T14:00:00Z", count: 2
    )
    #expect(both.map(\.0) == ["2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z"])
    let last = try await Self.plan(
      Self.yaml("45 1 * * *", zone, gap: "shift", repeat: "last"), "p", from: "2026-04-04T14:00:00Z", count: 1
    )
    #expect(last.map(\.0) == ["2026-04-04T15:15:00Z"])
  }

  @Test func anUnknownRuleSaysWhatIsAllowed() async throws {
    let folder = try TemporaryDirectory()
    let config = folder.path("pipelines.yaml")
    try Self.yaml("30 2 * * *", "UTC", gap: "jump", repeat: "first").write(
      toFile: config, atomically: true, encoding: .utf8)
    let result = try await Executable.run("rinjobs", ["validate", "--config", config])
    #expect(result.exitCode == 78)
    #expect(
      result.stderr.contains("'pipelines.p.dst.gap' must be shift or skip, got 'jump'"), "\(result.stderr)")
  }
}
