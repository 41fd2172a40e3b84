import RinReport
import RinTestSupport
import Testing

@testable import RinRuntime

/// Issue 40: a run's pauses by reason, with the batches' time beside them, in the summary text
/// and the ledger's JSON; rows written before the batches' time was kept still read.
@Suite("Runtime: paused time by reason", .onItsOwnThread)
struct PausedTimeTests {
  static func summary() -> RunSummary {
    var paused = PausedTime()
    paused.add(PausedTime.serverLoad, time: .seconds(4.25))
    paused.add(PausedTime.niceRatio, time: .milliseconds(120))
    paused.add(PausedTime.niceRatio, time: .milliseconds(130))
    paused.batchSeconds = 0.26
    var summary = RunSummary(job: .badgeRecount, dryRun: false)
    summary.status = .succeeded
    summary.paused = paused
    return summary
  }

  @Test func theSummaryTextNamesEachReasonAndTheBatchesTime() {
    let text = SummaryText.render(Self.summary())
    #expect(text.contains("paused (server load): 4.25 s in 1 pause\n"), "\(text)")
    #expect(text.contains("paused (nice ratio): 0.25 s in 2 pauses"), "\(text)")
    #expect(text.contains("in batches' transactions: 0.26 s"), "\(text)")
  }

  @Test func theLedgerKeepsThePausesAndReadsOlderRowsWithoutTheBatchesTime() throws {
    let json = try #require(Self.summary().ledgerCountsJSON)
    #expect(json.contains(#""server load":4.25"#) && json.contains(#""batch_seconds":0.26"#), "\(json)")
    let read = try #require(JSONText.decode(RunSummary.LedgerCounts.self, from: json))
    #expect(read.paused == Self.summary().paused)
    let older = try #require(
      JSONText.decode(PausedTime.self, from: #"{"seconds":{"gave way":7},"count":{"gave way":3}}"#))
    #expect(older.batchSeconds == nil && older.seconds["gave way"] == 7)
  }
}
