import RinDomain
import RinTestSupport
import Testing

@testable import RinRuntime

/// The JSON outputs write a ledger's slot and day as text, an instant as Unix seconds, and leave
/// a nil value out; a text that names no value is not read back.
@Suite("ledger values in JSON", .onItsOwnThread)
struct LedgerJSONTests {
  let slot = UTCInstant(seconds: 1_795_314_600)

  @Test func aStatusProblemWritesItsSlotAsText() {
    let failed = PipelineStatus.Problem(slot: slot, runID: 7, detail: "boom")
    #expect(JSONText.encode(failed) == #"{"detail":"boom","run_id":7,"slot":"2026-11-22T02:30:00Z"}"#)
    let missed = PipelineStatus.Problem(slot: slot, runID: nil, detail: nil)
    #expect(JSONText.encode(missed) == #"{"slot":"2026-11-22T02:30:00Z"}"#)
  }

  @Test func aSummaryWritesItsSlotAndDayAsTextAndLeavesThemOutWhenNil() throws {
    var summary = RunSummary(job: .dailyScore, dryRun: false)
    let empty = try #require(JSONText.encode(summary))
    #expect(!empty.contains(#""slot""#) && !empty.contains(#""as_of""#), "\(empty)")
    let readEmpty = try #require(JSONText.decode(RunSummary.self, from: empty))
    #expect(readEmpty.slot == nil && readEmpty.asOf == nil)

    summary.slot = slot
    summary.asOf = CalendarDate("2026-11-21")
    summary.now = slot
    let text = try #require(JSONText.encode(summary))
    #expect(text.contains(#""slot":"2026-11-22T02:30:00Z""#), "\(text)")
    #expect(text.contains(#""as_of":"2026-11-21""#), "\(text)")
    #expect(text.contains(#""now":1795314600"#), "\(text)")
    let read = try #require(JSONText.decode(RunSummary.self, from: text))
    #expect(read.slot == slot && read.asOf == CalendarDate("2026-11-21") && read.now == slot)

    let badDay = text.replacingOccurrences(of: "2026-11-21", with: "someday")
    #expect(JSONText.decode(RunSummary.self, from: badDay) == nil)
  }

  struct Stamped: Codable, Equatable {
    @AsText var at: UTCInstant
  }

  @Test func aValueThatIsNotOptionalIsRequired() throws {
    let stamped = Stamped(at: slot)
    #expect(JSONText.encode(stamped) == #"{"at":"2026-11-22T02:30:00Z"}"#)
    #expect(JSONText.decode(Stamped.self, from: #"{"at":"2026-11-22T02:30:00Z"}"#) == stamped)
    #expect(JSONText.decode(Stamped.self, from: #"{}"#) == nil)
    #expect(JSONText.decode(Stamped.self, from: #"{"at":null}"#) == nil)
    #expect(JSONText.decode(Stamped.self, from: #"{"at":1795314600}"#) == nil)
  }

  @Test func aReportWritesItsSupersededSlotsAsTexts() throws {
    var report = PipelineReport(pipeline: "scores", dryRun: true, now: slot)
    report.superseded = [slot, slot + .seconds(3600)]
    let text = try #require(JSONText.encode(report))
    #expect(text.contains(#""superseded":["2026-11-22T02:30:00Z","2026-11-22T03:30:00Z"]"#), "\(text)")
    #expect(JSONText.decode(PipelineReport.self, from: text)?.superseded == report.superseded)
    let bad = text.replacingOccurrences(of: "2026-11-22T03:30:00Z", with: "later")
    #expect(JSONText.decode(PipelineReport.self, from: bad) == nil)
  }

  @Test func aShardIsItsText() throws {
    let shard = try #require(RunShard("1/4"))
    #expect(JSONText.encode([shard, .all]) == #"["1/4","all"]"#)
    #expect(JSONText.decode([RunShard].self, from: #"["1/4"]"#) == [shard])
    #expect(JSONText.decode([RunShard].self, from: #"["5/4"]"#) == nil)
  }
}
