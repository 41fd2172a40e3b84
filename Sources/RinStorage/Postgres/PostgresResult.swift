import CLibPQ

/// Owns one `PGresult` and frees it when dropped.
final class PostgresResult {
  let handle: OpaquePointer

  init(_ handle: OpaquePointer) { self.handle = handle }
  deinit { PQclear(handle) }

  var rowCount: Int32 { PQntuples(handle) }

  /// Rows an INSERT, UPDATE or DELETE changed (0 for other statements).
  var changedRows: Int {
    guard let text = PQcmdTuples(handle) else { return 0 }
    return Int(String(cString: text)) ?? 0
  }
}
