import Foundation
import GRDB
import RinTestSupport
import Testing

/// docs/CONTRACT.md §4 "Signals": SIGTERM finishes the current batch, commits it with its checkpoint,
/// marks the run `interrupted` and exits 75; the next run resumes after that checkpoint.
@Suite("Reliability: SIGTERM stops after the batch, the next run resumes", .onItsOwnThread)
struct ReliabilitySignalTests {
  @Test(arguments: Backend.available, ReliabilityJobs.all)
  func sigtermInterruptsAfterTheCurrentBatchAndTheNextRunResumesFromItsCheckpoint(
    backend: Backend, job: String
  ) async {
    await Checks.offPool { checks in
      let provider = try ReliabilityProvider(for: job)
      defer { provider.stop() }
      // An attribution-expiry batch takes about a millisecond: in batches of 5 clicks, a loaded CI
      // run saw all 13 end before the signal, three attempts running. One click a batch makes 61.
      let oneUserBatches = provider.jobsYAML(batchSize: 1, deleteBatchSize: 1)
      let freshWorkspace = try ReliabilityWorkspace.maker(
        backend, users: ReliabilityJobs.users, seed: ReliabilityJobs.seed, jobsYAML: oneUserBatches)
      let reference = try ReliabilityReferences.reference(
        job, on: backend, batchSize: 1, deleteBatchSize: 1, provider: provider, freshWorkspace: freshWorkspace
      )
      let (expected, batches) = (reference.tables, reference.batches)
      // A fast job may end before the signal is handled: then that attempt proves nothing, and
      // another starts (the tally says how often).
      var attempts = 0
      var interrupted = false
      while attempts < 3 && !interrupted {
        attempts += 1
        let workspace = try freshWorkspace()
        let child = try workspace.spawn(job, label: "stopped")
        try checks.require(child.waitForLines(containing: ReliabilityJobs.batchMarker, count: 1))
        child.signal(SIGTERM)
        let stopped = child.finish()
        let summary = try checks.require(
          try JSONSerialization.jsonObject(with: Data(stopped.stdout.utf8)) as? [String: Any])
        if stopped.exitCode == 0 && summary["status"] as? String == "succeeded" { continue }
        interrupted = true

        checks.expect(stopped.exitCode == 75, "\(job): \(stopped.stderr.suffix(1_000))")
        checks.expect(summary["status"] as? String == "interrupted")
        let runID = try checks.require(summary["run_id"] as? Int)
        let (status, checkpoint, leases) = try workspace.read { db in
          (
            try String.fetchOne(db, sql: "SELECT status FROM job_runs WHERE id = ?", arguments: [runID]),
            try Int64.fetchOne(
              db, sql: "SELECT last_user_id FROM job_checkpoints WHERE job = ?", arguments: [job]),
            try Int.fetchOne(db, sql: "SELECT count(*) FROM job_leases") ?? -1
          )
        }
        checks.expect(status == "interrupted")
        checks.expect(leases == 0, "the lease was given back")
        // attribution-expiry is not per user: it has no checkpoint, its next run deletes the rest.
        if job != "attribution-expiry" {
          let resumeAfter = try checks.require(checkpoint, "\(job): the interrupted run left a checkpoint")
          let rerun = try workspace.run(job)
          checks.expect(rerun.exitCode == 0, "\(rerun.stderr.suffix(1_000))")
          let resumed = try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any]
          checks.expect((resumed?["resumed_after_user"] as? NSNumber)?.int64Value == resumeAfter)
        } else {
          checks.expect(try workspace.run(job).exitCode == 0)
        }
        let differences = try workspace.snapshot().differences(from: expected)
        checks.expect(differences.isEmpty, "\(job): \(differences)")
      }
      ReliabilityLevel.report(
        "SIGTERM \(job) on \(backend): interrupted on attempt \(attempts) of 3, of \(batches) batches")
      checks.expect(interrupted, "\(job): SIGTERM after the first batch never landed before the run ended")
    }
  }
}
