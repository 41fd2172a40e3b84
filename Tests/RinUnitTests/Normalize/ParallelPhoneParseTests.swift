import GRDB
import RinNormalize
import RinTestSupport
import Testing

@Suite("Phones parsed on every core", .onItsOwnThread)
struct ParallelPhoneParseTests {
  @Test(arguments: [1, 2, 3])
  func giveWhatParsingOneByOneGivesOnEveryPhoneOfASeededFile(threads: Int) throws {
    let db = try TestDatabase(seedUsers: 12, seed: 21)
    let rows = try db.read { d in
      try Row.fetchAll(
        d,
        sql:
          "SELECT p.raw, u.region FROM contact_phones p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.id = c.user_id ORDER BY p.rowid"
      )
    }
    let phones: [(raw: String, defaultRegion: String)] = rows.compactMap { row in
      (row[0] as String?).map { ($0, PhoneNormalizer.region(from: row[1])) }
    }
    #expect(phones.count > 1_000)
    let parallel = PhoneNormalizer.parse(phones, threads: threads)
    let oneByOne = phones.map { PhoneNormalizer.parse(raw: $0.raw, defaultRegion: $0.defaultRegion) }
    #expect(parallel == oneByOne)
    #expect(
      oneByOne.contains(nil) && oneByOne.contains { $0 != nil }, "the seed has valid and invalid phones")
  }
}
