import Foundation
import Logging
import Synchronization

/// A one-line progress bar on stderr when stderr is a terminal, with the rate and the time left
/// as tqdm and indicatif show them (redrawn at most ten times a second). Otherwise (cron, log
/// collectors) one log line `progress` per interval (`RIN_PROGRESS_INTERVAL` seconds, default
/// 30) with the same numbers, so a long run is seen to move; a run shorter than the interval
/// logs none.
public final class ProgressBar: Sendable {
  /// Seconds between two `progress` log lines when stderr is not a terminal.
  public static let defaultLogInterval = 30.0

  /// Seconds on a monotonic clock (the host's uptime, never 0 here): the bar measures elapsed
  /// time, which a step of the wall clock must not make negative.
  private static var monotonicSeconds: Double { ProcessInfo.processInfo.systemUptime }

  private struct State {
    var label = ""
    var unit = ""
    var total = 0
    var done = 0
    var lastDraw = 0.0
    var started = 0.0
    var rows = 0
    var lastLog = 0.0
    var finished = false
  }
  private let state = Mutex(State())
  /// Log mode: where the lines go and how often.
  private let logger: Logger?
  private let logInterval: Double

  /// A bar on a terminal; else, given a `logger`, log lines every `RIN_PROGRESS_INTERVAL`
  /// seconds of `environment` (0: after every batch); else nil.
  public init?(label: String, logger: Logger? = nil, environment: [String: String] = [:]) {
    if Terminal.stderrIsTerminal {
      self.logger = nil
    } else if let logger {
      self.logger = logger
    } else {
      return nil
    }
    logInterval =
      environment["RIN_PROGRESS_INTERVAL"].flatMap(Double.init).map { max(0, $0) } ?? Self.defaultLogInterval
    state.withLock { $0.label = label }
  }

  func start(total: Int, unit: String) {
    state.withLock {
      $0.total = total
      $0.unit = unit
      $0.done = 0
      $0.rows = 0
      $0.started = Self.monotonicSeconds
      $0.lastLog = $0.started
      $0.finished = false
    }
    if logger != nil { startLogging() }
  }

  /// Logs on a thread of its own, so that a batch that waits (a provider's rate) still shows.
  private func startLogging() {
    // Short steps: the thread ends within half a second of the walk.
    let step = min(max(logInterval, 1) / 4, 0.5)
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: step)
        guard !(state.withLock { $0.finished }) else { return }
        logIfDue(force: false)
      }
    }
    thread.name = "rinjobs.progress"
    thread.start()
  }

  private func logIfDue(force: Bool) {
    guard let logger else { return }
    let metadata: Logger.Metadata? = state.withLock { s in
      let now = Self.monotonicSeconds
      guard !s.finished, s.started > 0, now - s.lastLog >= logInterval || force else { return nil }
      s.lastLog = now
      let elapsed = now - s.started
      let rate = elapsed > 0 ? Double(s.done) / elapsed : 0
      var metadata: Logger.Metadata = [
        "users_done": "\(s.done)", "users_total": "\(s.total)",
        "percent": "\(s.total > 0 ? Int(Double(min(s.done, s.total)) / Double(s.total) * 100) : 100)",
        "seconds": "\(Int(elapsed.rounded()))", "users_per_second": "\(Self.perSecond(rate))",
        "rows_per_second": "\(Self.perSecond(elapsed > 0 ? Double(s.rows) / elapsed : 0))",
      ]
      if rate > 0, s.done < s.total {
        metadata["seconds_left"] = "\(Int((Double(s.total - s.done) / rate).rounded(.up)))"
      }
      return metadata
    }
    if let metadata { logger.info("progress", metadata: metadata) }
  }

  /// `count` more units done, having read `rows` rows.
  func advance(by count: Int, rows: Int = 0) {
    if logger != nil {
      state.withLock { s in
        s.done += count
        s.rows += rows
      }
      logIfDue(force: false)
      return
    }
    let line: String? = state.withLock { s in
      s.done += count
      s.rows += rows
      let now = Self.monotonicSeconds
      guard now - s.lastDraw >= 0.1 || s.done >= s.total else { return nil }
      s.lastDraw = now
      return Self.line(
        label: s.label, unit: s.unit, done: s.done, total: s.total, rows: s.rows, elapsed: now - s.started)
    }
    if let line { Terminal.writeStderr("\r" + line) }
  }

  func finish() {
    if logger != nil {
      state.withLock { $0.finished = true }
      return
    }
    let drawn = state.withLock { $0.lastDraw > 0 }
    if drawn { Terminal.writeStderr("\n") }
  }

  /// `label [███····] 40% 400/1000 users · 200 users/s · 52000 rows/s · 0:03 left`; the rates
  /// and the time left once a tenth of a second has passed and something is done.
  static func line(label: String, unit: String, done: Int, total: Int, rows: Int = 0, elapsed: Double)
    -> String
  {
    let width = 30
    let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    var line = "\(label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total) \(unit)"
    guard elapsed >= 0.1, done > 0 else { return line }
    let rate = Double(done) / elapsed
    line += " · \(perSecond(rate)) \(unit)/s"
    if rows > 0 { line += " · \(perSecond(Double(rows) / elapsed)) rows/s" }
    if done < total {
      line += " · \(clock(Double(total - done) / rate)) left"
    }
    return line
  }

  static func perSecond(_ rate: Double) -> String {
    rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate)
  }

  /// 75 → "1:15", 3725 → "1:02:05".
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    let (hours, minutes, rest) = (whole / 3_600, whole % 3_600 / 60, whole % 60)
    let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }
}
