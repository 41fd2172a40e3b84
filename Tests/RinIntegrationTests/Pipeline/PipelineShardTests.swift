import Foundation
import RinTestSupport
import Testing

/// `pipeline run NAME --scheduled --shard K/N` (and `auto/N`, as a Kubernetes Indexed Job runs
/// it) through the executable on both backends: each shard worker has its own ledger row and
/// lease for the slot, the slot is done when every shard is, and the shards together write what
/// one unsharded run writes.
@Suite("a pipeline run per shard", .onItsOwnThread)
struct PipelineShardTests {
  @Test(arguments: Backend.available) func twoShardWorkersDoTheSlotTogether(backend: Backend) async throws {
    let sharded = try TestDatabase(backend, seedUsers: 16, seed: 8)
    let whole = try TestDatabase(backend, seedUsers: 16, seed: 8)
    let config = try TestConfigFile.write(
      """
      pipelines:
        nightly:
          schedule: "30 2 * * *"
          jobs: [daily-score, badge-recount]
      """, in: sharded.directory)
    let slot = ["--scheduled", "--now", "2026-11-22T02:30:20Z"]
    let first = try await sharded.run(
      "rinjobs", ["pipeline", "run", "nightly", "--shard", "0/2"] + slot, config: config)
    #expect(first.exitCode == 0, "\(first.stderr)")
    let halfDone = try await sharded.run(
      "rinjobs", ["status", "nightly", "--now", "2026-11-22T03:00:00Z"], config: config)
    #expect(
      halfDone.exitCode == 1 && halfDone.stdout.contains("missed: 2026-11-22T02:30:00Z"), "\(halfDone.stdout)"
    )

    let second = try await sharded.run(
      "rinjobs", ["pipeline", "run", "nightly", "--shard", "auto/2"] + slot, config: config,
      environment: ["JOB_COMPLETION_INDEX": "1"])
    #expect(second.exitCode == 0, "\(second.stderr)")
    let done = try await sharded.run(
      "rinjobs", ["status", "nightly", "--now", "2026-11-22T03:00:00Z"], config: config)
    #expect(done.exitCode == 0, "\(done.stdout)")

    let rows = try sharded.strings(
      "SELECT shard || ' ' || status FROM job_runs WHERE job = 'pipeline:nightly' ORDER BY shard")
    #expect(rows == ["0/2 succeeded", "1/2 succeeded"])
    #expect(
      try sharded.strings("SELECT DISTINCT shard FROM job_runs WHERE job = 'daily-score' ORDER BY shard")
        == ["0/2", "1/2"])

    let again = try await sharded.run(
      "rinjobs", ["pipeline", "run", "nightly", "--shard", "0/2"] + slot, config: config)
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(
      try sharded.int("SELECT count(*) FROM job_runs WHERE job = 'pipeline:nightly'") == 2, "already done")

    let unsharded = try await whole.run("rinjobs", ["pipeline", "run", "nightly"] + slot, config: config)
    #expect(unsharded.exitCode == 0, "\(unsharded.stderr)")
    // Rows, not insertion order: the shards insert in their own order.
    for query in [
      "SELECT user_id || ' ' || as_of || ' ' || score || ' ' || tier || ' ' || coalesce(delta, 0) || ' ' || computed_at FROM score_snapshots ORDER BY user_id",
      "SELECT user_id || ' ' || home || ' ' || circles || ' ' || score || ' ' || profile FROM badge_counts ORDER BY user_id",
    ] {
      let (got, want) = (try sharded.strings(query), try whole.strings(query))
      #expect(!want.isEmpty && got == want, "\(query.prefix(60))")
    }
  }
}
