import Foundation
import GRDB
import RinTestSupport
import Testing

/// docs/CONTRACT.md §5 "two runs at once": four processes start the same job at the same moment;
/// exactly one does the work, three exit 75 naming the holder.
@Suite("Reliability: four runs of a job started at once", .onItsOwnThread)
struct ReliabilityConcurrencyTests {
  @Test(arguments: Backend.available, ReliabilityJobs.all)
  func fourRunsStartedAtOnceOneWorksAndThreeExit75(backend: Backend, job: String) async {
    await Checks.offPool { checks in
      let provider = try ReliabilityProvider(for: job)
      defer { provider.stop() }
      // attribution-expiry one click a batch, as in the SIGTERM test: in batches of 5 it could end
      // before the test held it, three attempts running.
      let jobsYAML = provider.jobsYAML(batchSize: 1, deleteBatchSize: 1)
      let freshWorkspace = try ReliabilityWorkspace.maker(
        backend, users: ReliabilityJobs.users, seed: ReliabilityJobs.seed, jobsYAML: jobsYAML)
      let expected = try ReliabilityReferences.reference(
        job, on: backend, batchSize: 1, deleteBatchSize: 1, provider: provider, freshWorkspace: freshWorkspace
      ).tables
      // A job of a few milliseconds may end before the test holds it, or a run reach the gate
      // late (a loaded machine): that attempt proves nothing, and another starts.
      var (lateAtTheGate, endedBeforeTheHold) = (0, 0)
      for attempt in 1...3 {
        let workspace = try freshWorkspace()
        // The same moment, made exact: the lease held while the four start keeps each at its
        // first look at it; released, they race for the lease together.
        let (children, together) = try RaceGate.startTogether(in: workspace) {
          try (0..<4).map { try workspace.spawn(job, label: "racer\($0)") }
        }
        // Then, as with a job that runs for minutes, the winner is held (SQLite: frozen; PostgreSQL:
        // its next commit waits) while the others look at the lease.
        let heldWhileRunning = try RaceGate.holdTheLeaseHolder(in: workspace, job: job, runs: children)
        let results = children.map { $0.finish() }
        guard together && heldWhileRunning else {
          if !together { lateAtTheGate += 1 } else { endedBeforeTheHold += 1 }
          continue
        }

        let codes = results.map(\.exitCode).sorted()
        checks.expect(codes == [0, 75, 75, 75], "\(job): \(results.map { $0.stderr.suffix(500) })")
        for result in results where result.exitCode == 75 {
          checks.expect(result.stderr.contains("is already running: run "), "\(result.stderr.suffix(500))")
        }
        let statuses = try workspace.read {
          try String.fetchAll($0, sql: "SELECT status FROM job_runs ORDER BY status")
        }
        // A loser's `skipped` row waits for the write lock like any write; a winner whose batches
        // keep the lock past the busy timeout leaves it unrecorded, and the loser logs that.
        let unrecorded = results.filter { $0.stderr.contains("could not record the skipped run") }.count
        checks.expect(statuses.filter { $0 == "succeeded" }.count == 1, "\(statuses)")
        checks.expect(statuses.allSatisfy { $0 == "succeeded" || $0 == "skipped" }, "\(statuses)")
        checks.expect(
          statuses.count + unrecorded == 4, "every run is in the ledger or says why not: \(statuses)")
        let differences = try workspace.snapshot().differences(from: expected)
        checks.expect(differences.isEmpty, "\(job): \(differences)")
        ReliabilityLevel.report(
          "4 at once \(job) on \(backend): exits \(codes) (attempt \(attempt)), \(unrecorded) skipped rows left unrecorded"
        )
        return
      }
      checks.record(
        "\(job): no attempt of 3 proved anything: \(lateAtTheGate) had a run reach the gate late, "
          + "\(endedBeforeTheHold) a winner end before the test held it or the others wait past 40 s")
    }
  }
}
