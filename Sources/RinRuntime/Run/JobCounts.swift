/// What a run read and skipped, by what and why. Writes are counted by `ChangeSet`.
public struct JobCounts: Sendable, Codable, Equatable {
  public var read: [String: Int] = [:]
  public var skipped: [String: Int] = [:]
  /// Users whose batch committed in this run.
  public var usersProcessed = 0
  /// Owners whose results the periodic pass changed with no stamp to explain the change: what
  /// the online services wrote without bumping a change time (docs/OPERATIONS.md "The periodic
  /// pass"). Nil for a job that has no periodic pass; absent from ledger rows written before
  /// it was counted.
  public var unstampedCorrections: Int?

  public init() {}

  public mutating func addRead(_ what: some JobCounter, _ count: Int = 1) {
    if count != 0 { read[what.key, default: 0] += count }
  }

  public mutating func addSkipped(_ reason: some JobCounter, _ count: Int = 1) {
    if count != 0 { skipped[reason.key, default: 0] += count }
  }

  /// Counts owners the periodic pass corrected; a job with a pass calls it for every batch,
  /// with 0 too, so that its summary says 0 rather than nothing.
  public mutating func addUnstampedCorrections(_ count: Int) {
    unstampedCorrections = (unstampedCorrections ?? 0) + count
  }

  public mutating func merge(_ other: JobCounts) {
    read.merge(other.read, uniquingKeysWith: +)
    skipped.merge(other.skipped, uniquingKeysWith: +)
    usersProcessed += other.usersProcessed
    if let corrections = other.unstampedCorrections { addUnstampedCorrections(corrections) }
  }
}
