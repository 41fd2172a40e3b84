import Foundation
import GRDB
import RinTestSupport
import Testing

/// Several worker processes, one per shard, on one PostgreSQL database at the same time.
@Suite("Sharded workers on PostgreSQL", .onItsOwnThread)
struct ShardedWorkersTests {
  static let shards = 3

  @Test(.enabled(if: Backend.available.contains(.postgres)))
  func shardWorkersAtOnceEqualOneUnshardedRunAndTakeEachUserOnce() async throws {
    let sharded = try TestDatabase(.postgres, seedUsers: 90, seed: 41)
    let whole = try TestDatabase(.postgres, seedUsers: 90, seed: 41)
    let clock = ["--now", "2026-11-22T12:00:00Z", "--json"]
    let workers = try (0..<Self.shards).map { k in
      try Executable.start(
        "rin-daily-score", ["--db", sharded.path, "--shard", "\(k)/\(Self.shards)"] + clock,
        outputIn: sharded.directory, tag: "worker\(k)")
    }
    // Waited for on a thread of their own, not on the cooperative pool.
    try await offPool { for worker in workers { worker.waitUntilExit() } }
    for (k, worker) in workers.enumerated() {
      let stderr =
        (try? String(contentsOfFile: sharded.directory.path("worker\(k).err"), encoding: .utf8)) ?? ""
      #expect(worker.terminationStatus == 0, "shard \(k): \(stderr)")
    }
    let single = try await Executable.run("rin-daily-score", ["--db", whole.path] + clock)
    #expect(single.exitCode == 0, "\(single.stderr)")

    for table in ["score_snapshots", "user_state", "invite_prompt_queue"] {
      let expected = try BackendParityTests.rows(whole, table)
      #expect(!expected.isEmpty || table == "invite_prompt_queue")
      #expect(try BackendParityTests.rows(sharded, table) == expected, "\(table)")
    }
    let keys = "SELECT dedupe_key FROM notification_outbox ORDER BY dedupe_key"
    #expect(try sharded.strings(keys) == whole.strings(keys))

    // The ledger: one succeeded run per shard, and the shards' users add up to the whole run's
    // (every user once: no overlap, no gap).
    let runs = try sharded.read { d in
      try Row.fetchAll(
        d, sql: "SELECT shard, status, counts FROM job_runs WHERE job = 'daily-score' ORDER BY shard")
    }
    #expect(runs.map { $0[0] as String } == (0..<Self.shards).map { "\($0)/\(Self.shards)" })
    #expect(runs.allSatisfy { ($0[1] as String) == "succeeded" })
    let processed = try runs.map { try Self.usersProcessed($0[2] as String) }
    let wholeProcessed = try whole.read { d in
      try String.fetchOne(d, sql: "SELECT counts FROM job_runs WHERE job = 'daily-score'")
    }
    #expect(processed.reduce(0, +) == (try Self.usersProcessed(try #require(wholeProcessed))))
    #expect(try sharded.int("SELECT count(*) FROM score_snapshots") == processed.reduce(0, +))
    #expect(processed.allSatisfy { $0 > 0 })
  }

  static func usersProcessed(_ counts: String) throws -> Int {
    let object = try JSONSerialization.jsonObject(with: Data(counts.utf8)) as? [String: Any]
    let inner = object?["counts"] as? [String: Any]
    return try #require(inner?["users_processed"] as? Int)
  }
}
