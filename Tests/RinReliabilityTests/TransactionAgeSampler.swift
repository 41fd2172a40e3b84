import Foundation
import GRDB
import RinTestSupport

/// Samples, every 20 ms, the oldest open transaction of the jobs (`application_name` rinjobs) in
/// `pg_stat_activity`, and how long it has lived.
///
/// A transaction's wall age on a machine the test suite itself loads past its cores is mostly the
/// time its client, or its backend, waited for a CPU: a starved client leaves its backend "idle in
/// transaction" between statements. That time is the machine's, not the job's, so the sampler
/// also reads the kernel's run-queue delay (`/proc/PID/schedstat`, second field) of the backend and
/// of every thread of the job's process, and keeps each transaction's *own* age: its wall age less
/// what both waited for a CPU since the sample before the one that first saw it. The delays are
/// read just before each sample's query, so that every wait up to the moment the age is measured
/// is subtracted: read after the previous query instead, a sampler that itself waited for a CPU
/// left the job's waits of that time in the age (a transaction's own age read 0.63 s, then 0.33 s
/// at the next sample, 20 ms later). And a sample's own age is settled only at the next sample:
/// the kernel adds a wait to the run-queue delay when it ends, so a backend still waiting for a
/// CPU when sampled has that wait in neither reading before the query (a CI run read 0.65 s of
/// its own at one sample and 0.38 s at the next, the backend's 0.27 s wait for a CPU counted in
/// between). Settled with the waits read just before the next sample's query, an own age may
/// have the waits of that one gap (20 ms and the sampler's own delay) subtracted too much. A
/// transaction first seen after a long gap between samples may have begun inside it, so up to
/// that gap's waits may predate it; any other time stays in the own age: statements, lock waits,
/// disk, and the job's own work between statements.
///
/// For a failure message it keeps what the oldest transaction was seen doing: its backend, and
/// each statement it ran (with its state and wait) while sampled.
final class TransactionAgeSampler: @unchecked Sendable {
  struct Ages {
    /// The longest a job transaction was seen open, in seconds of wall time.
    var wall = 0.0
    /// The longest a job transaction was seen open, less its CPU waits (above).
    var own = 0.0
    /// How many samples saw a job transaction.
    var samples = 0
  }

  private let url: String
  /// Text in the job process's command line (the workspace's config path) that finds it in /proc.
  private let clientMarker: String
  private let lock = NSLock()
  private var ages = Ages()
  /// The transaction with the longest own age: its backend and start.
  private var oldestKey = ""
  private var seen: [String: [String]] = [:]
  private var stopping = false
  private let done = DispatchSemaphore(value: 0)

  init(url: String, clientMarker: String) {
    self.url = url
    self.clientMarker = clientMarker
  }

  /// The transaction with the longest own age, and what it was seen doing, sample by sample (the
  /// first and the last samples when there are many).
  var oldestQuery: String {
    lock.withLock {
      let doing = seen[oldestKey] ?? []
      let shown = doing.count <= 12 ? doing : Array(doing.prefix(4)) + ["…"] + Array(doing.suffix(8))
      return "\(oldestKey): " + shown.joined(separator: " | ")
    }
  }

  func start() {
    Thread.detachNewThread { [self] in
      defer { done.signal() }
      guard let connection = try? TestPostgresConnection(url: url) else { return }
      // The transaction followed, with the waits it is measured from; the last sample's waits,
      // and what it saw, until the next reading of the same backend settles its own age.
      var transaction: (key: String, from: CPUWaits)?
      var previous: CPUWaits?
      var unsettled: Sample?
      var client: Int32?
      while !lock.withLock({ stopping }) {
        defer { Thread.sleep(forTimeInterval: 0.02) }
        let before = previous?.readAgain()
        if let sample = unsettled, let before { settle(sample, waits: before) }
        unsettled = nil
        guard let row = Self.oldestJobTransaction(connection), let wall = Double.fromDatabaseValue(row[0]),
          let backend = Int32.fromDatabaseValue(row[1]), let key = String.fromDatabaseValue(row[2])
        else { continue }
        if client.map(Self.isAlive) != true { client = Self.process(containing: clientMarker) }
        if transaction?.key != key {
          let seenBefore = previous.flatMap { $0.backend == backend ? $0 : nil }
          transaction = (key, seenBefore ?? CPUWaits(backend: backend, client: client))
        }
        previous = CPUWaits(backend: backend, client: client)
        unsettled = transaction.map {
          Sample(key: key, wall: wall, from: $0.from, doing: String.fromDatabaseValue(row[3]) ?? "")
        }
        lock.withLock {
          ages.wall = max(ages.wall, wall)
          ages.samples += 1
        }
      }
      if let sample = unsettled, let waits = previous?.readAgain() { settle(sample, waits: waits) }
    }
  }

  /// One sample of the oldest transaction: its key, wall age, the waits its own age is measured
  /// from, and what it was doing.
  private struct Sample {
    var key: String
    var wall: Double
    var from: CPUWaits
    var doing: String
  }

  /// Keeps `sample`'s own age: its wall age less the waits since it began, read in `waits` (at
  /// the next sample) when that reading is of the same backend.
  private func settle(_ sample: Sample, waits: CPUWaits) {
    let own =
      waits.backend == sample.from.backend ? max(0, sample.wall - waits.since(sample.from)) : sample.wall
    lock.withLock {
      if sample.wall > 0.25 {
        seen[sample.key, default: []].append(sample.doing + String(format: " (own %.2f s)", own))
      }
      if own > ages.own { oldestKey = sample.key }
      ages.own = max(ages.own, own)
    }
  }

  /// The ages seen, once the sampling has stopped.
  func stop() -> Ages {
    lock.withLock { stopping = true }
    done.wait()
    return lock.withLock { ages }
  }

  /// The oldest job transaction: its wall age, backend pid, a key naming it, and what it does.
  private static func oldestJobTransaction(_ connection: TestPostgresConnection) -> [DatabaseValue]? {
    let rows = try? connection.execute(
      """
      SELECT extract(epoch FROM clock_timestamp() - xact_start)::float8, pid,
        'backend ' || pid || ' (' || application_name || '), transaction from ' || xact_start,
        round(extract(epoch FROM clock_timestamp() - xact_start)::numeric, 2) || ' s: ' || state
          || coalesce(' waiting ' || wait_event_type || '/' || wait_event, '')
          || ', statement of ' || round(extract(epoch FROM clock_timestamp() - query_start)::numeric, 2)
          || ' s: ' || left(query, 200)
      FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'rinjobs'
        AND backend_type = 'client backend' AND xact_start IS NOT NULL
      ORDER BY xact_start LIMIT 1
      """)
    return rows?.first
  }

  private static func isAlive(_ pid: Int32) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)/task")
  }

  /// The process whose command line contains `marker`.
  private static func process(containing marker: String) -> Int32? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
      guard let pid = Int32(entry),
        let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
      else { continue }
      // The arguments are separated by NUL bytes; the marker is one argument.
      if String(decoding: commandLine, as: UTF8.self).contains(marker) { return pid }
    }
    return nil
  }
}

/// What the kernel says a backend and each thread of a client process waited, runnable, for a CPU
/// (nanoseconds, `/proc/…/schedstat`'s second field), at one moment.
struct CPUWaits {
  var backend: Int32
  var backendDelay: UInt64
  var client: Int32?
  var clientThreads: [String: UInt64]

  init(backend: Int32, client: Int32?) {
    self.backend = backend
    backendDelay = Self.runQueueDelay("/proc/\(backend)/schedstat") ?? 0
    self.client = client
    var threads: [String: UInt64] = [:]
    if let client {
      let directory = "/proc/\(client)/task"
      for thread in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
        threads[thread] = Self.runQueueDelay("\(directory)/\(thread)/schedstat")
      }
    }
    clientThreads = threads
  }

  /// The same backend's and client's waits, read now.
  func readAgain() -> CPUWaits { CPUWaits(backend: backend, client: client) }

  /// Seconds the backend and the client waited for a CPU between `earlier` and this moment. The
  /// client's work runs on one thread at a time, so its wait is its most-delayed thread's, not the
  /// sum of all (which would count a sleeping heartbeat thread's waits too).
  func since(_ earlier: CPUWaits) -> Double {
    let backendWait = backendDelay >= earlier.backendDelay ? backendDelay - earlier.backendDelay : 0
    // A client found only now: its threads' waits may predate the transaction.
    guard client == earlier.client else { return Double(backendWait) / 1e9 }
    let clientWait =
      clientThreads.map { thread, delay -> UInt64 in
        let before = earlier.clientThreads[thread] ?? 0
        return delay >= before ? delay - before : 0
      }.max() ?? 0
    return Double(backendWait + clientWait) / 1e9
  }

  private static func runQueueDelay(_ path: String) -> UInt64? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    return fields.count >= 2 ? UInt64(fields[1]) : nil
  }
}
