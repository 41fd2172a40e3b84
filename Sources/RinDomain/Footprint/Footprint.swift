/// One table or index of the database as `rinjobs footprint` measured it. A table's bytes are
/// its heap (on PostgreSQL with its TOAST, free space and visibility maps, and every partition's);
/// an index's are its own (every partition's index of it on PostgreSQL).
public struct FootprintRelation: Sendable, Equatable, Encodable {
  public var name: String
  public var kind: FootprintRelationKind
  /// The table it belongs to: its own name for a table.
  public var table: String
  public var group: FootprintGroup
  public var bytes: Int64
  /// The table's rows (an index: its table's); on PostgreSQL the planner's estimate, nil when
  /// the table was never analyzed.
  public var rows: Int64?

  public init(
    name: String, kind: FootprintRelationKind, table: String, group: FootprintGroup, bytes: Int64,
    rows: Int64?
  ) {
    self.name = name
    self.kind = kind
    self.table = table
    self.group = group
    self.bytes = bytes
    self.rows = rows
  }

  enum CodingKeys: String, CodingKey { case name, kind, table, group, bytes, rows }

  /// `rows` is written as null when unknown, not left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(kind, forKey: .kind)
    try container.encode(table, forKey: .table)
    try container.encode(group, forKey: .group)
    try container.encode(bytes, forKey: .bytes)
    try container.encode(rows, forKey: .rows)
  }
}

/// Every table and index of the database in bytes, by group (`FootprintGroup`), with the
/// figures its target is judged by: kept (state + cache + our indexes) against the services' own,
/// and bytes per user.
public struct Footprint: Sendable, Equatable {
  /// `sqlite` or `postgres`.
  public var backend: String
  /// Rows of `users` (counted, on both backends).
  public var users: Int64
  /// PostgreSQL's rows are the planner's estimates (`pg_class.reltuples`); SQLite's are counted.
  public var rowsEstimated: Bool
  /// Largest first, then by name.
  public private(set) var relations: [FootprintRelation]

  public init(backend: String, users: Int64, rowsEstimated: Bool, relations: [FootprintRelation]) {
    self.backend = backend
    self.users = users
    self.rowsEstimated = rowsEstimated
    self.relations = relations.sorted { ($0.bytes, $1.name) > ($1.bytes, $0.name) }
  }

  /// A group's bytes and relations.
  public struct GroupTotal: Sendable, Equatable, Encodable {
    public var bytes: Int64 = 0
    public var tables = 0
    public var indexes = 0
    /// `bytes` over the users; nil without users.
    public var bytesPerUser: Double?
  }

  public func total(_ group: FootprintGroup) -> GroupTotal {
    var total = GroupTotal()
    for relation in relations where relation.group == group {
      total.bytes += relation.bytes
      if relation.kind == .table { total.tables += 1 } else { total.indexes += 1 }
    }
    total.bytesPerUser = perUser(total.bytes)
    return total
  }

  public var totalBytes: Int64 { relations.reduce(0) { $0 + $1.bytes } }

  /// State, cache and our indexes: what rin-jobs keeps beyond the services' tables and its outputs.
  public var keptBytes: Int64 { relations.reduce(0) { $0 + ($1.group.isKept ? $1.bytes : 0) } }

  /// `keptBytes` over the services' bytes (the target, `keptTarget`: at most 1.5 on SQLite, 1
  /// on PostgreSQL); nil when the services' tables hold nothing.
  public var keptToServices: Double? {
    let services = total(.services).bytes
    return services > 0 ? Double(keptBytes) / Double(services) : nil
  }

  /// The bound on `keptToServices`: 1.5 on SQLite, 1 on PostgreSQL (docs/OPERATIONS.md
  /// "Footprint").
  public var keptTarget: Double { backend == "postgres" ? 1 : 1.5 }

  /// Whether kept is within `keptTarget` of the services' bytes (nil when they hold nothing).
  public var isWithinTarget: Bool? { keptToServices.map { $0 <= keptTarget } }

  public var bytesPerUser: Double? { perUser(totalBytes) }

  public var keptBytesPerUser: Double? { perUser(keptBytes) }

  func perUser(_ bytes: Int64) -> Double? { users > 0 ? Double(bytes) / Double(users) : nil }

  /// Bytes per table and group, for `rinjobs_table_bytes`: an input table's heap, key and
  /// services' index under `services`, the indexes we added on it under `our_indexes`. By table,
  /// then group.
  public var bytesByTableAndGroup: [(table: String, group: FootprintGroup, bytes: Int64)] {
    var sums: [String: [FootprintGroup: Int64]] = [:]
    for relation in relations {
      sums[relation.table, default: [:]][relation.group, default: 0] += relation.bytes
    }
    return sums.keys.sorted().flatMap { table in
      FootprintGroup.allCases.compactMap { group in
        sums[table]?[group].map { (table, group, $0) }
      }
    }
  }

  /// The `count` largest relations.
  public func largest(_ count: Int) -> [FootprintRelation] { Array(relations.prefix(count)) }
}

extension Footprint: Encodable {
  enum CodingKeys: String, CodingKey {
    case backend, users, groups, relations
    case rowsEstimated = "rows_estimated"
    case totalBytes = "total_bytes"
    case keptBytes = "kept_bytes"
    case keptToServices = "kept_to_services"
    case keptTarget = "kept_target"
    case bytesPerUser = "bytes_per_user"
    case keptBytesPerUser = "kept_bytes_per_user"
  }

  /// `{backend, users, rows_estimated, groups: {services: {bytes, tables, indexes,
  /// bytes_per_user}, …}, total_bytes, kept_bytes, kept_to_services, kept_target,
  /// bytes_per_user, kept_bytes_per_user, relations: [{name, kind, table, group, bytes, rows}]}`; an unknown
  /// figure is null.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(backend, forKey: .backend)
    try container.encode(users, forKey: .users)
    try container.encode(rowsEstimated, forKey: .rowsEstimated)
    let groups = Dictionary(uniqueKeysWithValues: FootprintGroup.allCases.map { ($0.rawValue, total($0)) })
    try container.encode(groups, forKey: .groups)
    try container.encode(totalBytes, forKey: .totalBytes)
    try container.encode(keptBytes, forKey: .keptBytes)
    try container.encode(keptToServices, forKey: .keptToServices)
    try container.encode(keptTarget, forKey: .keptTarget)
    try container.encode(bytesPerUser, forKey: .bytesPerUser)
    try container.encode(keptBytesPerUser, forKey: .keptBytesPerUser)
    try container.encode(relations, forKey: .relations)
  }
}
