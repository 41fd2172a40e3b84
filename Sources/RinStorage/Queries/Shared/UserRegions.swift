import RinDomain

extension StorageTransaction {
  /// `users.region` as stored (none when null): circle-patterns parses phones with it, and
  /// `ownerStamps` fingerprints it.
  package func userRegions(of ids: [UserID]) throws -> [UserID: String] {
    var regions: [UserID: String] = [:]
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
  let id: UserID
  let region: String?

  init(_ row: RowDecoder<Columns>) {
    id = row.key(.id)
    region = row.textIfPresent(.region)
  }
}
