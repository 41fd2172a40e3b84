/// Where a table or an index of the database counts in `rinjobs footprint` (docs/OPERATIONS.md
/// "Footprint"): what the online services would keep without rin-jobs, and what rin-jobs adds.
public enum FootprintGroup: String, Sendable, CaseIterable, Codable {
  /// The input tables of docs/CONTRACT.md §2: their rows, their keys, and the one index on each
  /// table's owner or parent column that the services' own reads need anyway.
  case services
  /// Every other index on an input table: the ones the jobs added (covering, stamp, birthday,
  /// mutual-check indexes…).
  case ourIndexes = "our_indexes"
  /// The output tables the app reads (§2), with all their indexes, the cache aside.
  case outputs
  /// `enrichment_lookups`, the provider's answers kept until they expire, with its indexes.
  case cache
  /// Every other table of ours (ledger, checkpoints, per-contact and per-owner state, the
  /// migrations' bookkeeping) with its indexes.
  case state

  /// Space that exists only for the jobs' sake: state, cache and our indexes. The outputs are
  /// what the app shows, and the services' part is theirs.
  public var isKept: Bool { self == .state || self == .cache || self == .ourIndexes }
}

/// A relation as `rinjobs footprint` lists it.
public enum FootprintRelationKind: String, Sendable, Codable {
  case table, index
}

/// Puts each relation in its group from the table it belongs to and what it is. The table lists
/// are the data contract's (RinStorage's `DataContract`); `servicesIndexes` names the services'
/// index of each input table, explicitly: an index is the services' only if it is listed or
/// backs a key (a primary key or a unique constraint).
public struct FootprintClassifier: Sendable, Equatable {
  public var inputTables: Set<String>
  /// The output tables, caches included or not: `cacheTables` wins.
  public var outputTables: Set<String>
  public var cacheTables: Set<String>
  public var servicesIndexes: Set<String>

  public init(
    inputTables: Set<String>, outputTables: Set<String>, cacheTables: Set<String>,
    servicesIndexes: Set<String>
  ) {
    self.inputTables = inputTables
    self.outputTables = outputTables
    self.cacheTables = cacheTables
    self.servicesIndexes = servicesIndexes
  }

  /// The group of the relation `name` of `kind` on `table` (a table's own name for a table);
  /// `isKey`: an index that backs the table's primary key or a unique constraint.
  public func group(name: String, kind: FootprintRelationKind, table: String, isKey: Bool) -> FootprintGroup {
    if cacheTables.contains(table) { return .cache }
    if outputTables.contains(table) { return .outputs }
    guard inputTables.contains(table) else { return .state }
    switch kind {
    case .table: return .services
    case .index: return isKey || servicesIndexes.contains(name) ? .services : .ourIndexes
    }
  }
}
