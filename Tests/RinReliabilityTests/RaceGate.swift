import Foundation
import GRDB
import RinTestSupport

/// How the concurrency test makes four runs meet at the same moment and then holds the one
/// that won the lease, with a raw connection of its own (independent of the storage module).
/// SQLite: the file's write lock. PostgreSQL: table locks (`LOCK TABLE`), which the runs'
/// lease reads and batch writes wait for as they wait for any lock.
enum RaceGate {
  /// Starts runs with `start` while the runs' first look at the lease is held, waits until every
  /// run is at the gate, then lets them go together; false when some run had not reached it
  /// within `limit` seconds (that attempt proves nothing).
  ///
  /// A fixed wait is not enough: in a loaded CI run one of four processes reached the lease after
  /// the first had run to its end, found it free, and ran too. The wait stays under the runs'
  /// busy and lock timeouts (5 s in ReliabilityWorkspace), or the first to arrive would give up.
  static func startTogether(
    in workspace: ReliabilityWorkspace, limit: TimeInterval = 4, _ start: () throws -> [ChildProcess]
  ) throws -> (runs: [ChildProcess], together: Bool) {
    guard workspace.postgres != nil else {
      return try workspace.connection().writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN EXCLUSIVE")
        defer { try? db.execute(sql: "ROLLBACK") }
        let started = try start()
        // A run that has the file open goes straight to its first write, which waits for the lock.
        let together = waitUntil(limit) { started.allSatisfy { opens(workspace.dbPath, $0.pid) } }
        usleep(300_000)
        return (started, together)
      }
    }
    let pg = try TestPostgresConnection(url: workspace.dbPath)
    try pg.execute("BEGIN; LOCK TABLE job_leases IN ACCESS EXCLUSIVE MODE")
    defer { _ = try? pg.execute("ROLLBACK") }
    let started = try start()
    let together = waitUntil(limit) {
      // Inside a transaction the activity view is read once, unless its snapshot is cleared.
      _ = try? pg.execute("SELECT pg_stat_clear_snapshot()")
      let waiting = try? pg.execute(
        """
        SELECT count(*) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'rinjobs' AND wait_event_type = 'Lock'
        """
      ).first?.first.flatMap(Int.fromDatabaseValue)
      return (waiting ?? 0) >= started.count
    }
    return (started, together)
  }

  private static func waitUntil(_ limit: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while !condition() {
      if Date() > deadline { return false }
      usleep(10_000)
    }
    return true
  }

  /// Whether process `pid` has the file at `path` open.
  private static func opens(_ path: String, _ pid: Int32) -> Bool {
    let descriptors = "/proc/\(pid)/fd"
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    return ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")) == target
    }
  }

  /// Waits for one of `runs` to take `job`'s lease, then holds it while the others look at the
  /// lease; true when the lease was still held once the hold began (SQLite: and the others had
  /// all exited within 40 s).
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
      // Well inside the lease's 60 s: a holder frozen past it may rightly be taken over (its
      // heartbeat stopped), and a second run would then work. Others still waiting by then
      // (a loaded machine) make the attempt prove nothing.
      let deadline = Date().addingTimeInterval(40)
      while runs.contains(where: { $0.pid != holder && $0.process.isRunning }) && Date() < deadline {
        usleep(10_000)
      }
      return held && !runs.contains(where: { $0.pid != holder && $0.process.isRunning })
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
