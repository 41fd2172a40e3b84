import Foundation
import Synchronization

/// A one-line progress bar on stderr, only when stderr is a terminal (cron and log collectors
/// get JSON lines instead), with the rate and the time left as tqdm and indicatif show them.
/// Redraws at most ten times a second.
public final class ProgressBar: Sendable {
  private struct State {
    var label = ""
    var unit = ""
    var total = 0
    var done = 0
    var lastDraw = 0.0
    var started = 0.0
    var rows = 0
  }
  private let state = Mutex(State())

  public init?(label: String) {
    guard Terminal.stderrIsTerminal else { return nil }
    state.withLock { $0.label = label }
  }

  func start(total: Int, unit: String) {
    state.withLock {
      $0.total = total
      $0.unit = unit
      $0.done = 0
      $0.rows = 0
      $0.started = Date().timeIntervalSinceReferenceDate
    }
  }

  /// `count` more units done, having read `rows` rows.
  func advance(by count: Int, rows: Int = 0) {
    let line: String? = state.withLock { s in
      s.done += count
      s.rows += rows
      let now = Date().timeIntervalSinceReferenceDate
      guard now - s.lastDraw >= 0.1 || s.done >= s.total else { return nil }
      s.lastDraw = now
      return Self.line(
        label: s.label, unit: s.unit, done: s.done, total: s.total, rows: s.rows, elapsed: now - s.started)
    }
    if let line { Terminal.writeStderr("\r" + line) }
  }

  func finish() {
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
