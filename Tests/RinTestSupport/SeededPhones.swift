import GRDB
import RinNormalize

/// Every non-null number of a seeded file with its owner's default region, for property tests
/// that hold the phone code to libphonenumber over many regions.
package struct SeededPhone {
  package var raw: String
  package var region: String

  package static func all(users: Int, seed: UInt64) throws -> [SeededPhone] {
    let db = try TestDatabase(seedUsers: users, seed: seed)
    return try db.read { d in
      try Row.fetchAll(
        d,
        sql:
          "SELECT p.raw, u.region FROM contact_phones p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.id = c.user_id"
      ).compactMap { row in
        guard let raw = row[0] as String? else { return nil }
        return SeededPhone(raw: raw, region: PhoneNormalizer.region(from: row[1]))
      }
    }
  }
}
