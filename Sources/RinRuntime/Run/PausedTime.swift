import RinDomain

/// Time a run spent not working on purpose, by reason: waiting for the database's health
/// (`replica lag`) or after giving way to a lock (`gave way`). In the summary, the ledger, the
/// metrics file and the report, so that a slow night shows why.
public struct PausedTime: Sendable, Codable, Equatable {
  /// Seconds by reason, to the millisecond.
  public var seconds: [String: Double] = [:]
  /// How many pauses, by reason.
  public var count: [String: Int] = [:]

  public init() {}

  public static let replicaLag = "replica lag"
  public static let gaveWay = "gave way"

  var total: Double { seconds.values.reduce(0, +) }
  var isEmpty: Bool { count.isEmpty }

  mutating func add(_ reason: String, time: Duration) {
    self.seconds[reason, default: 0] =
      ((self.seconds[reason, default: 0] + time.inSeconds) * 1000).rounded() / 1000
    count[reason, default: 0] += 1
  }
}
