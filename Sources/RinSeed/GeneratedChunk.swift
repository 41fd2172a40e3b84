import RinStorage

/// The rows of users `firstUser...lastUser`, ready to be written in one transaction.
struct GeneratedChunk: Sendable {
  let firstUser: Int
  let lastUser: Int
  /// Flattened rows per table, indexed by `SeedTable.rawValue`.
  let tables: [[SQLValue]]

  /// Generates the chunk; `ids` carries the id counters from the previous chunk to the next.
  static func generate(
    users: ClosedRange<Int>, ids: inout IDCounters, reusing tables: [[SQLValue]], _ ctx: SeedContext
  ) -> GeneratedChunk {
    let buffer = RowBuffer(ids: ids, reusing: tables)
    for user in users { UserGenerator.write(userID: Int64(user), ctx, into: buffer) }
    ids = buffer.ids
    return GeneratedChunk(firstUser: users.lowerBound, lastUser: users.upperBound, tables: buffer.tables)
  }
}
