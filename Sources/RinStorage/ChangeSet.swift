import RinDomain

/// What a run changed (or, in a dry run, would have changed), per table, with a few samples.
/// Samples carry ids and counts only, never personal data.
public struct ChangeSet: Sendable, Codable, Equatable {
  public enum Kind: String, Sendable, Codable { case insert, update, delete }

  public struct TableChanges: Sendable, Codable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    public var samples: [String] = []
    public var total: Int { inserted + updated + deleted }
  }

  public static let samplesPerTable = 3

  public private(set) var tables: [String: TableChanges] = [:]
  /// Outbox rows by `kind`: the notifications that were (or would be) queued.
  public private(set) var notifications: [String: Int] = [:]

  public init() {}

  public var isEmpty: Bool { tables.values.allSatisfy { $0.total == 0 } }

  public mutating func record(
    _ table: String, _ kind: Kind, count: Int = 1, sample: @autoclosure () -> String
  ) {
    guard count > 0 else { return }
    var changes = tables[table] ?? TableChanges()
    switch kind {
    case .insert: changes.inserted += count
    case .update: changes.updated += count
    case .delete: changes.deleted += count
    }
    if changes.samples.count < Self.samplesPerTable {
      changes.samples.append("\(kind.rawValue) \(sample())")
    }
    tables[table] = changes
  }

  public mutating func recordNotification(kind: NotificationKind) {
    notifications[kind.rawValue, default: 0] += 1
  }

  public mutating func merge(_ other: ChangeSet) {
    for (table, theirs) in other.tables {
      var mine = tables[table] ?? TableChanges()
      mine.inserted += theirs.inserted
      mine.updated += theirs.updated
      mine.deleted += theirs.deleted
      mine.samples.append(contentsOf: theirs.samples.prefix(Self.samplesPerTable - mine.samples.count))
      tables[table] = mine
    }
    notifications.merge(other.notifications, uniquingKeysWith: +)
  }
}
