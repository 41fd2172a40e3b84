extension Migrations {
  /// Every table a migration creates (or renames a table to), on either backend: the tables
  /// that are ours or the data contract's. Erasure keeps to these minus the services' input
  /// tables (docs/OPERATIONS.md "Erasure"): a table the services keep beside them in the same
  /// schema is theirs to erase, and a table a later migration adds is ours without a list to
  /// edit. Read from the steps' own DDL, so it cannot drift from them.
  static let tablesCreated: Set<String> = {
    let pattern = #/(?i)(?:CREATE TABLE(?: IF NOT EXISTS)?|RENAME TO)\s+([A-Za-z_][A-Za-z0-9_]*)/#
    var names: Set<String> = []
    for step in steps {
      for text in [step.sql, step.postgres ?? ""] {
        for match in text.matches(of: pattern) { names.insert(String(match.output.1).lowercased()) }
      }
    }
    return names
  }()
}
