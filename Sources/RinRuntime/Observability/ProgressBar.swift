import Foundation
import Synchronization

/// A one-line progress bar on stderr, only when stderr is a terminal (cron and log collectors
/// get JSON lines instead). Redraws at most ten times a second.
public final class ProgressBar: Sendable {
  private struct State {
    var label = ""
    var unit = ""
    var total = 0
    var done = 0
    var lastDraw = 0.0
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
    }
  }

  func advance(by count: Int) {
    let line: String? = state.withLock { s in
      s.done += count
      let now = Date().timeIntervalSinceReferenceDate
      guard now - s.lastDraw >= 0.1 || s.done >= s.total else { return nil }
      s.lastDraw = now
      return Self.render(s)
    }
    if let line { Terminal.writeStderr("\r" + line) }
  }

  func finish() {
    let drawn = state.withLock { $0.lastDraw > 0 }
    if drawn { Terminal.writeStderr("\n") }
  }

  private static func render(_ s: State) -> String {
    let width = 30
    let fraction = s.total > 0 ? min(1, Double(s.done) / Double(s.total)) : 1
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    return "\(s.label) [\(bar)] \(Int(fraction * 100))% \(s.done)/\(s.total) \(s.unit)"
  }
}
