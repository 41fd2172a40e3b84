import Foundation
import GRDB
import RinTestSupport
import Testing

/// docs/CONTRACT.md §5 "database missing, unreadable, locked, disk full": a clear message, exit 75 or
/// 1, the open transaction rolled back, nothing half-written. Made for real: a read-only
/// tmpfs, an immutable file (`chattr +i`: root ignores file modes), a full tmpfs, and another
/// connection holding the write lock.
@Suite("Reliability: database faults", .serialized, .onItsOwnThread)
struct ReliabilityDatabaseFaultTests {
  static let job = "upcoming-birthdays"
  /// Users of the full-disk and mid-run-lock templates: the full disk's headroom and the lock's
  /// timing are sized for a run of 40 users in batches of 2.
  static let users = 40

  @Test(.enabled(if: ScratchMount.isPermitted, "needs permission to mount a tmpfs"))
  func aReadOnlyFileSystemExits1NamingTheCauseAndWritesNothing() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: 10, seed: 3)
      // A file in write-ahead-log mode (as every job leaves it) cannot even be opened there:
      // SQLite says "unable to open"; the message names the read-only folder instead.
      for (journal, message) in [
        ("DELETE", "attempt to write a readonly database"), ("WAL", "its folder cannot be written"),
      ] {
        let mount = try ScratchMount(kilobytes: 20_000)
        let workspace = try ReliabilityWorkspace(copying: template, folder: mount.path)
        _ = try workspace.connection().writeWithoutTransaction {
          try String.fetchOne($0, sql: "PRAGMA journal_mode = \(journal)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.dbPath))
        try mount.remount("ro")
        let result = try workspace.run(Self.job)
        checks.expect(result.exitCode == 1, "\(journal): \(result.stderr)")
        checks.expect(
          result.stderr.contains("database read-only: \(message)"), "\(journal): \(result.stderr)")
        checks.expect(try Data(contentsOf: URL(fileURLWithPath: workspace.dbPath)) == before)
      }
    }
  }

  @Test(.enabled(if: ScratchMount.canMakeFilesImmutable, "needs chattr +i on the temporary folder"))
  func anImmutableFileExits1AndKeepsItsBytes() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: 10, seed: 3)
      let workspace = try ReliabilityWorkspace(copying: template)
      let before = try Data(contentsOf: URL(fileURLWithPath: workspace.dbPath))
      try checks.require(ScratchMount.system("/usr/bin/chattr", ["+i", workspace.dbPath]))
      defer { ScratchMount.system("/usr/bin/chattr", ["-i", workspace.dbPath]) }
      let result = try workspace.run(Self.job)
      checks.expect(result.exitCode == 1, "\(result.stderr)")
      checks.expect(result.stderr.contains("database read-only"), "\(result.stderr)")
      checks.expect(try Data(contentsOf: URL(fileURLWithPath: workspace.dbPath)) == before)
    }
  }

  @Test(.enabled(if: ScratchMount.isPermitted, "needs permission to mount a tmpfs"))
  func aFullDiskFailsTheRunWithoutAHalfBatchAndTheNextRunResumes() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: Self.users, seed: ReliabilityJobs.seed)
      let (expected, _, reference) = try ReliabilityJobs.uninterruptedRun(Self.job, on: template)
      let size = try FileManager.default.attributesOfItem(atPath: template.path)[.size] as? Int ?? 0
      // Room for the ledger row and a few batches, not for the whole run.
      let mount = try ScratchMount(kilobytes: size / 1024 + 200)
      let workspace = try ReliabilityWorkspace(copying: template, folder: mount.path)

      let full = try workspace.run(Self.job)
      checks.expect(full.exitCode == 75, "\(full.stderr.suffix(1_000))")
      checks.expect(full.stderr.contains("disk full"), "\(full.stderr.suffix(1_000))")
      let (status, checkpoint) = try workspace.read { db in
        (
          try String.fetchOne(db, sql: "SELECT status FROM job_runs ORDER BY id DESC LIMIT 1"),
          try Int64.fetchOne(db, sql: "SELECT last_user_id FROM job_checkpoints")
        )
      }
      // The ledger's `failed` is a write too, and on a full disk it may not fit in the
      // write-ahead log either: then the row stays `running` with its lease, the run says so,
      // and the next run takes over the dead process's lease and marks the row `abandoned`.
      let endUnrecorded = full.stderr.contains("could not record the end of run")
      checks.expect(
        status == "failed" || (status == "running" && endUnrecorded),
        "\(status ?? "no row"): \(full.stderr.suffix(1_000))")
      let through = try checks.require(checkpoint, "some batches committed before the disk filled")
      // Every committed batch is whole, and nothing of the failed one is there.
      for table in ["upcoming_events", "notification_outbox"] {
        let sql = "SELECT * FROM \(table) WHERE user_id <= ? ORDER BY 1, 2, 3, 4"
        func rows(_ in: ReliabilityWorkspace) throws -> [String] {
          try `in`.read { try Row.fetchAll($0, sql: sql, arguments: [through]).map { "\($0)" } }
        }
        checks.expect(
          try rows(workspace) == rows(reference), "\(table): the batches through user \(through) are whole")
        let after = try workspace.read { db in
          try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE user_id > ?", arguments: [through])
        }
        checks.expect(after == 0, "\(table): nothing of the batch that failed")
      }

      try mount.remount("size=\(size / 1024 + 20_000)k")
      let rerun = try workspace.run(Self.job)
      checks.expect(rerun.exitCode == 0, "\(rerun.stderr.suffix(1_000))")
      if endUnrecorded {
        checks.expect(rerun.stderr.contains("took over the lease of run"), "\(rerun.stderr.suffix(1_000))")
      }
      let differences = try workspace.snapshot().differences(from: expected)
      checks.expect(differences.isEmpty, "\(differences)")
    }
  }

  @Test func aDatabaseLockedPastTheBusyTimeoutExits75AndWritesNothing() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: 10, seed: 3)
      let workspace = try ReliabilityWorkspace(copying: template, busyTimeout: "1s")
      let before = try workspace.snapshot()
      let result = try Self.runWhileAnotherConnectionHoldsTheWriteLock(in: workspace)
      checks.expect(result.exitCode == 75, "\(result.stderr)")
      checks.expect(result.stderr.contains("database busy"), "\(result.stderr)")
      checks.expect(try workspace.snapshot().differences(from: before).isEmpty)
      checks.expect(try workspace.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM job_runs") } == 0)
    }
  }

  /// A run started while another run holds the lease and that run's batch holds the write
  /// lock (here: a live lease of this test process, and the lock held past the busy timeout).
  /// Opening the database and the first look at the lease are reads, so it names the holder
  /// and exits 75; only its `skipped` ledger row, a write, is left unrecorded, and it says so.
  /// The file's write-ahead log is empty, as after every connection closed: opening such a file
  /// used to write to it, and the run failed "database busy" without seeing the lease.
  @Test func aRunThatMeetsTheWriteLockWhileAnotherRunHoldsTheLeaseNamesTheHolder() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: 10, seed: 3)
      let workspace = try ReliabilityWorkspace(copying: template, busyTimeout: "1s")
      let holderPID = ProcessInfo.processInfo.processIdentifier
      try workspace.connection().write { db in
        try db.execute(
          sql: """
            INSERT INTO job_leases (job, shard, run_id, host, pid, acquired_at, expires_at)
            VALUES (?, 'all', 4242, ?, ?, ?, ?)
            """,
          arguments: [
            Self.job, ProcessInfo.processInfo.hostName, holderPID, Int(Date().timeIntervalSince1970),
            Int(Date().timeIntervalSince1970) + 3_600,
          ])
      }
      let walSize =
        (try? FileManager.default.attributesOfItem(atPath: workspace.dbPath + "-wal")[.size] as? Int) ?? 0
      checks.expect(walSize == 0, "the test needs an empty write-ahead log; it has \(walSize) bytes")
      let before = try workspace.snapshot()
      let result = try Self.runWhileAnotherConnectionHoldsTheWriteLock(in: workspace)
      checks.expect(result.exitCode == 75, "\(result.stderr)")
      checks.expect(
        result.stdout.contains("is already running: run 4242, pid \(holderPID)"), "\(result.stdout)")
      checks.expect(!result.stderr.contains("run failed"), "\(result.stderr)")
      checks.expect(result.stderr.contains("could not record the skipped run"), "\(result.stderr)")
      checks.expect(try workspace.snapshot().differences(from: before).isEmpty)
      checks.expect(try workspace.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM job_runs") } == 0)
    }
  }

  private static func runWhileAnotherConnectionHoldsTheWriteLock(in workspace: ReliabilityWorkspace) throws
    -> Executable.Result
  {
    try workspace.connection().writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN EXCLUSIVE")
      defer { try? db.execute(sql: "ROLLBACK") }
      return try workspace.run(job)
    }
  }

  /// The lock is taken between two batches (the job frozen with SIGSTOP while the test takes
  /// it), held past the busy timeout, then released before the run records its end. The hold
  /// (8 s) ends after the batch's wait (5 s) if the job reaches its next write within 3 s of
  /// the hold, and before the ledger write's own 5 s wait runs out whenever it does: room for a
  /// loaded machine on both sides.
  @Test func aLockHeldMidRunFailsThatBatchOnlyAndTheNextRunResumes() async {
    await Checks.offPool { checks in
      let template = try SeededTemplate(users: Self.users, seed: ReliabilityJobs.seed)
      let (expected, _, _) = try ReliabilityJobs.uninterruptedRun(Self.job, on: template)
      let workspace = try ReliabilityWorkspace(copying: template, busyTimeout: "5s")
      let child = try workspace.spawn(Self.job, label: "locked")
      var quickGate = Configuration()
      quickGate.busyMode = .timeout(0.2)
      // The lock is held across two accesses: BEGIN in one, ROLLBACK in the next.
      quickGate.allowsUnsafeTransactions = true
      let gate = try DatabaseQueue(path: workspace.dbPath, configuration: quickGate)
      var held = false
      var batch = 1
      while !held && child.waitForLines(containing: ReliabilityJobs.batchMarker, count: batch) {
        child.signal(SIGSTOP)
        // Frozen inside its next transaction, the job keeps the lock: let it go on and retry.
        held = (try? gate.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }) != nil
        child.signal(SIGCONT)
        batch += 1
      }
      try checks.require(held, "the lock was taken between two batches")
      usleep(8_000_000)
      try gate.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
      let locked = child.finish()
      checks.expect(locked.exitCode == 75, "\(locked.stderr.suffix(1_000))")
      checks.expect(locked.stderr.contains("database busy"), "\(locked.stderr.suffix(1_000))")
      let (status, checkpoint) = try workspace.read { db in
        (
          try String.fetchOne(db, sql: "SELECT status FROM job_runs ORDER BY id DESC LIMIT 1"),
          try Int64.fetchOne(db, sql: "SELECT last_user_id FROM job_checkpoints")
        )
      }
      checks.expect(status == "failed", "\(status ?? "no row"): \(locked.stderr.suffix(1_000))")
      checks.expect(checkpoint != nil)
      let rerun = try workspace.run(Self.job)
      checks.expect(rerun.exitCode == 0, "\(rerun.stderr.suffix(1_000))")
      let differences = try workspace.snapshot().differences(from: expected)
      checks.expect(differences.isEmpty, "\(differences)")
    }
  }
}
