import Foundation
import GRDB

/// How the concurrency test makes four runs meet at the same moment and then holds the one
/// that won the lease, with a raw connection of its own (independent of the storage module).
/// SQLite: the file's write lock. PostgreSQL: table locks (`LOCK TABLE`), which the runs'
/// lease reads and batch writes wait for as they wait for any lock.
enum RaceGate {
  /// Starts runs with `start` while the runs' first look at the lease is held, then lets them
  /// go together.
  static func startTogether(
    in workspace: ReliabilityWorkspace, _ start: () throws -> [ChildProcess]
  ) throws -> [ChildProcess] {
    guard workspace.postgres != nil else {
      return try workspace.connection().writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN EXCLUSIVE")
        defer { try? db.execute(sql: "ROLLBACK") }
        let started = try start()
        usleep(1_500_000)
        return started
      }
    }
    let pg = try TestPostgresConnection(url: workspace.dbPath)
    // Well within the runs' lock timeout (storage.busy_timeout 5s).
    try pg.execute("BEGIN; LOCK TABLE job_leases IN ACCESS EXCLUSIVE MODE")
    defer { _ = try? pg.execute("ROLLBACK") }
    let started = try start()
    usleep(1_500_000)
    return started
  }

  /// Waits for a run to take `job`'s lease, then holds its next batch commit for a second;
  /// true when the lease was still held once the hold began.
  static func holdTheLeaseHolder(in workspace: ReliabilityWorkspace, job: String) throws -> Bool {
    let sql = "SELECT count(*) FROM job_leases WHERE job = ?"
    guard workspace.postgres != nil else {
      let db = try workspace.connection()
      for _ in 0..<10_000 {
        if try db.read({ try Int.fetchOne($0, sql: sql, arguments: [job]) }) == 1 { break }
        usleep(1_000)
      }
      return try db.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN IMMEDIATE")
        defer { try? db.execute(sql: "ROLLBACK") }
        let held = try Int.fetchOne(db, sql: sql, arguments: [job]) == 1
        usleep(1_000_000)
        return held
      }
    }
    let pg = try TestPostgresConnection(url: workspace.dbPath)
    let leases = { try pg.execute(sql, [job.databaseValue]).first?.first.flatMap(Int.fromDatabaseValue) }
    for _ in 0..<10_000 {
      if try leases() == 1 { break }
      usleep(1_000)
    }
    // One table every batch of the job writes last (a batch commits with its checkpoint;
    // attribution-expiry deletes clicks): the winner waits at its next commit, and holding a
    // single table can never deadlock with it.
    let table = job == "attribution-expiry" ? "invite_clicks" : "job_checkpoints"
    try pg.execute("BEGIN; LOCK TABLE \(table) IN EXCLUSIVE MODE")
    defer { _ = try? pg.execute("ROLLBACK") }
    let held = try leases() == 1
    usleep(1_000_000)
    return held
  }
}
