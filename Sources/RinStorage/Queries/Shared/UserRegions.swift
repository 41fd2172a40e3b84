extension StorageTransaction {
  /// `users.region` as stored (none when null): circle-patterns parses phones with it, and
  /// `ownerStamps` fingerprints it.
  package func userRegions(of ids: [Int64]) throws -> [Int64: String] {
    var regions: [Int64: String] = [:]
    let owners = OwnerSet(ids)
    try sql.forEach(
      UserRegion.self,
      "SELECT \(columns: UserRegion.Columns.self) FROM users WHERE \(owners.condition(on: "id"))"
    ) {
      row in
      if owners.includes(row.id), let region = row.region { regions[row.id] = region }
    }
    return regions
  }
}

/// A user's region as the services wrote it (any text, or NULL).
private struct UserRegion: DecodableRow {
  enum Columns: Int, RowColumns { case id, region }
  static let table = "users"
  let id: Int64
  let region: String?

  init(_ row: RowDecoder<Columns>) {
    id = row.key(.id)
    region = row.textIfPresent(.region)
  }
}
