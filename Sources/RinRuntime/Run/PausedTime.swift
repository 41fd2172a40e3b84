import RinDomain

/// Time a run spent not working on purpose, by reason: waiting for the database's health
/// (`replica lag`, `server load`), after giving way to a lock (`gave way`), or pacing itself
/// (`nice ratio`). In the summary, the ledger, the metrics file and the report, so that a slow
/// night shows why.
public struct PausedTime: Sendable, Codable, Equatable {
  /// Seconds by reason, to the millisecond.
  public var seconds: [String: Double] = [:]
  /// How many pauses, by reason.
  public var count: [String: Int] = [:]
  /// Seconds in the batches' transactions, to weigh the pauses against (`nice ratio` sleeps a
  /// share of it); nil in rows written before it was recorded.
  public var batchSeconds: Double? = nil

  public init() {}

  public static let replicaLag = "replica lag"
  public static let gaveWay = "gave way"
  public static let serverLoad = "server load"
  public static let niceRatio = "nice ratio"

  var total: Double { seconds.values.reduce(0, +) }
  var isEmpty: Bool { count.isEmpty }

  mutating func add(_ reason: String, time: Duration) {
    self.seconds[reason, default: 0] =
      ((self.seconds[reason, default: 0] + time.inSeconds) * 1000).rounded() / 1000
    count[reason, default: 0] += 1
  }
}
