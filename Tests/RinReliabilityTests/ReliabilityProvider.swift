import Foundation
import RinTestSupport
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The loopback provider stub enrichment-fetch talks to: the real `rinjobs-dev provider-stub
/// --port 0 --log-requests`, in a process of its own (the test's threads block on the jobs they
/// run, so a stub inside the test process would starve). Its request log gives the keys asked.
final class ReliabilityProvider: Sendable {
  static let keyVariable = "RIN_RELIABILITY_PROVIDER_KEY"
  /// The provider settings `jobsYAML` gives enrichment-fetch (`concurrency` is the default).
  static let keysPerRequest = 5
  static let concurrency = 4

  private let process: Process?
  let baseURL: String?
  private let keys = Mutex(0)
  /// Requests with no keys seen in the log: the markers `keysRequested` sends.
  private let markers = Mutex(0)

  /// A stub for enrichment-fetch; none for the other jobs.
  init(for job: String) throws {
    guard job == "enrichment-fetch" else {
      process = nil
      baseURL = nil
      return
    }
    let process = Process()
    process.executableURL = Executable.buildFolder.appendingPathComponent("rinjobs-dev")
    process.arguments = ["provider-stub", "--port", "0", "--log-requests"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    let reader = output.fileHandleForReading
    var pending = ""
    var url: String?
    while url == nil {
      let chunk = reader.availableData
      guard !chunk.isEmpty else { break }
      pending += String(decoding: chunk, as: UTF8.self)
      url = pending.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
    }
    guard let url else { throw ReliabilityFailure("the provider stub did not start: \(pending)") }
    baseURL = url
    Self.countKeys(after: pending, from: reader, into: self)
  }

  /// Reads `request at=… keys=N` lines for as long as the stub lives.
  private static func countKeys(
    after start: String, from reader: FileHandle, into provider: ReliabilityProvider
  ) {
    let thread = Thread {
      var text = start
      while true {
        var lines = text.components(separatedBy: "\n")
        text = lines.removeLast()
        for line in lines {
          if let field = line.split(separator: " ").first(where: { $0.hasPrefix("keys=") }),
            let count = Int(field.dropFirst(5))
          {
            provider.keys.withLock { $0 += count }
            if count == 0 { provider.markers.withLock { $0 += 1 } }
          }
        }
        let chunk = reader.availableData
        if chunk.isEmpty { return }
        text += String(decoding: chunk, as: UTF8.self)
      }
    }
    thread.start()
  }

  /// `jobs:` with `batch_size` users per batch for every job, and the stub as provider.
  func jobsYAML(batchSize: Int, deleteBatchSize: Int) -> String {
    var yaml = """
      jobs:
        daily-score: {batch_size: \(batchSize)}
        circle-patterns: {batch_size: \(batchSize)}
        upcoming-birthdays: {batch_size: \(batchSize)}
        attribution-expiry: {delete_batch_size: \(deleteBatchSize)}
        badge-recount: {batch_size: \(batchSize)}
      """
    if let baseURL {
      yaml += """

          enrichment-fetch:
            batch_size: \(batchSize)
            provider:
              name: stub-people
              url: \(baseURL)
              api_key_env: \(Self.keyVariable)
              batch_size: \(Self.keysPerRequest)
              concurrency: \(Self.concurrency)
              requests_per_minute: 100000
              max_retries: 0
        """
    }
    return yaml
  }

  /// Lookup keys asked for so far, over all requests (a key asked twice counts twice). The stub
  /// logs a request before it answers, in order, so once a marker request sent now (no keys)
  /// is in the log, every earlier request's line has been counted, however slow the machine.
  var keysRequested: Int {
    get throws {
      guard let baseURL, let url = URL(string: baseURL + "/v1/person/bulk") else { return 0 }
      let before = markers.withLock { $0 }
      var request = URLRequest(url: url)
      request.httpMethod = "POST"
      request.httpBody = Data(#"{"requests":[]}"#.utf8)
      let answered = DispatchSemaphore(value: 0)
      URLSession.shared.dataTask(with: request) { _, _, _ in answered.signal() }.resume()
      _ = answered.wait(timeout: .now() + 60)
      let deadline = Date().addingTimeInterval(60)
      while markers.withLock({ $0 }) == before {
        guard Date() < deadline else {
          throw ReliabilityFailure("the provider stub did not log a marker request")
        }
        usleep(5_000)
      }
      return keys.withLock { $0 }
    }
  }

  func stop() {
    guard let process, process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }

  deinit { stop() }
}
