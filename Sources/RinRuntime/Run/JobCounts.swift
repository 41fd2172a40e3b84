/// What a run read and skipped, by what and why. Writes are counted by `ChangeSet`.
public struct JobCounts: Sendable, Codable, Equatable {
  public var read: [String: Int] = [:]
  public var skipped: [String: Int] = [:]
  /// Users whose batch committed in this run.
  public var usersProcessed = 0

  public init() {}

  public mutating func addRead(_ what: String, _ count: Int = 1) {
    if count != 0 { read[what, default: 0] += count }
  }

  public mutating func addSkipped(_ reason: String, _ count: Int = 1) {
    if count != 0 { skipped[reason, default: 0] += count }
  }

  public mutating func merge(_ other: JobCounts) {
    read.merge(other.read, uniquingKeysWith: +)
    skipped.merge(other.skipped, uniquingKeysWith: +)
    usersProcessed += other.usersProcessed
  }
}
