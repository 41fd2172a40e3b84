import Foundation
import GRDB
import RinTestSupport

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
    // Well within the runs' lock timeout (storage.lock_timeout 5s in ReliabilityWorkspace).
    try pg.execute("BEGIN; LOCK TABLE job_leases IN ACCESS EXCLUSIVE MODE")
    defer { _ = try? pg.execute("ROLLBACK") }
    let started = try start()
    usleep(1_500_000)
    return started
  }

  /// Waits for one of `runs` to take `job`'s lease, then holds it while the others look at the
  /// lease; true when the lease was still held once the hold began.
  ///
  /// SQLite: the holder is frozen (SIGSTOP), between two batches when a few tries find it there,
  /// until every other run has exited, then let go. A
  /// frozen process cannot end first, however loaded the machine; taking the write lock instead
  /// raced the winner's back-to-back batches for it, and on a machine at load 12 daily-score's
  /// 20 batches ended first in three attempts out of three. Frozen inside a batch, it keeps the
  /// write lock: the others still see its lease (a read) and exit 75; their `skipped` rows may
  /// wait out the busy timeout and go unrecorded, which they log and the test counts.
  static func holdTheLeaseHolder(in workspace: ReliabilityWorkspace, job: String, runs: [ChildProcess]) throws
    -> Bool
  {
    let sql = "SELECT count(*) FROM job_leases WHERE job = ?"
    guard workspace.postgres != nil else {
      let db = try workspace.connection()
      let holderSQL = "SELECT pid FROM job_leases WHERE job = ?"
      var holder: Int32?
      for _ in 0..<10_000 {
        holder = try db.read { try Int32.fetchOne($0, sql: holderSQL, arguments: [job]) }
        if holder != nil { break }
        usleep(1_000)
      }
      guard let holder, let winner = runs.first(where: { $0.pid == holder }) else { return false }
      winner.signal(SIGSTOP)
      defer { winner.signal(SIGCONT) }
      // Frozen between two batches if it can be (a few tries), so that the others can write
      // their `skipped` rows: inside a batch it keeps the write lock.
      var quick = Configuration()
      quick.busyMode = .timeout(0)
      let probe = try DatabaseQueue(path: workspace.dbPath, configuration: quick)
      for _ in 0..<50 {
        let lockFree: Bool? = try? probe.writeWithoutTransaction { db in
          try db.execute(sql: "BEGIN IMMEDIATE")
          try db.execute(sql: "ROLLBACK")
          return true
        }
        if lockFree == true { break }
        winner.signal(SIGCONT)
        usleep(500)
        winner.signal(SIGSTOP)
      }
      // Frozen while it still held the lease: it had not yet finished and given it back.
      let held = try db.read { try Int32.fetchOne($0, sql: holderSQL, arguments: [job]) } == holder
      let deadline = Date().addingTimeInterval(120)
      while runs.contains(where: { $0.pid != holder && $0.process.isRunning }) && Date() < deadline {
        usleep(10_000)
      }
      return held
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
