import Foundation
import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// The slots `--catch-up latest` superseded are marked in a column of the ledger, which the
/// scheduler asks instead of the counts' JSON; a database of the release before gets the
/// column filled from the counts of the rows it already holds.
@Suite("Superseded slots in a column of the ledger", .onItsOwnThread)
struct SupersededColumnTests {
  static let step = "mark the slots a catch-up superseded in a column of the run ledger"

  @Test(arguments: Backend.available)
  func aDatabaseOneReleaseBehindGetsItsSupersededRowsMarked(backend: Backend) throws {
    let db = try TestDatabase(backend)
    // As the release before left it: no column, the slot a catch-up ran in the counts only.
    try db.execute("ALTER TABLE job_runs DROP COLUMN superseded_by")
    try db.execute(
      "DELETE FROM \(backend == .sqlite ? "grdb_migrations" : "rin_migrations") WHERE identifier = ?",
      [Self.step])
    let insert = """
      INSERT INTO job_runs (job, pipeline, slot, shard, dry_run, status, host, pid, started_at,
        finished_at, counts)
      VALUES ('pipeline:nightly', 'nightly', ?, 'all', 0, ?, 'h', 1, ?, ?, ?)
      """
    try db.execute(insert, ["2026-11-22T02:30:00Z", "succeeded", 100, 110, #"{"jobs":[]}"#])
    try db.execute(
      insert,
      ["2026-11-21T02:30:00Z", "skipped", 120, 120, #"{"jobs":[],"superseded_by":"2026-11-22T02:30:00Z"}"#])
    try db.execute(
      insert, ["2026-11-23T02:30:00Z", "skipped", 130, 130, #"{"jobs":[],"skip_reason":"paused"}"#])

    let storage = try Storage.open(url: db.path)
    let (last, runs) = try storage.read { tx in
      (
        try tx.runtime.lastPipelineRun("nightly"),
        try tx.runtime.pipelineSlotRuns(
          "nightly", fromSlot: UTCInstant(seconds: 0), throughSlot: UTCInstant(seconds: 2_000_000_000))
      )
    }
    #expect(runs.map(\.supersededBy) == [UTCInstant("2026-11-22T02:30:00Z"), nil, nil])
    #expect(
      last?.slot == UTCInstant("2026-11-23T02:30:00Z"), "a paused slot is a run; a superseded one is not")
  }

  @Test(arguments: Backend.available) func aSupersededRowIsNotThePipelinesLastRun(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let slot = try #require(UTCInstant("2026-11-22T02:30:00Z"))
    let later = try #require(UTCInstant("2026-11-23T02:30:00Z"))
    let (ran, last) = try db.storage.write { tx in
      let record = { (slot: UTCInstant, status: RunRecord.Status, by: UTCInstant?) in
        RunRecord(
          job: .pipeline("nightly"), pipeline: "nightly", slot: slot, asOf: nil, shard: .all, dryRun: false,
          status: status, host: "h", pid: 1, startedAt: UTCInstant(seconds: 100), supersededBy: by)
      }
      let ran = try tx.runtime.insertRun(record(later, .succeeded, nil))
      _ = try tx.runtime.insertRun(record(slot, .skipped, later))
      return (ran, try tx.runtime.lastPipelineRun("nightly"))
    }
    #expect(last?.id == ran)
    let marked = try db.storage.read {
      try $0.runtime.pipelineSlotRuns("nightly", fromSlot: slot, throughSlot: slot)
    }
    #expect(marked.map(\.supersededBy) == [later])
  }
}
