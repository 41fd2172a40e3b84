import RinStorage
import Testing

@Suite("enrichment queries")
struct EnrichmentQueriesTests {
  /// Values travel to SQLite as one JSON array parameter; odd characters must survive it.
  @Test func valueSetsCarryAnyStringThroughTheirJSONParameter() throws {
    let db = try TestDatabase()
    let odd = [#"+1"2"#, #"a\b"#, "tab\there", "nul\u{1}x", "é日本", "plain"]
    for (index, phone) in odd.enumerated() {
      try db.execute(
        "INSERT INTO users (id, phone_e164, phone_verified, created_at) VALUES (?, ?, 1, 0)",
        [index + 1, phone])
    }
    try db.execute(
      "INSERT INTO users (id, phone_e164, phone_verified, created_at) VALUES (99, 'other', 1, 0)")
    let found = try db.storage.read { try $0.verifiedUsers(withPhones: Set(odd + ["missing"])) }
    #expect(found == Dictionary(uniqueKeysWithValues: odd.enumerated().map { ($1, [Int64($0 + 1)]) }))
  }

  @Test func aLookupIsCachedOncePerProviderAndKey() throws {
    let db = try TestDatabase()
    let row = LookupRow(key: "k", status: .noMatch, response: nil, fetchedAt: 1, expiresAt: 2)
    try db.storage.write { tx in
      try tx.putLookup(row, provider: "p", isNew: true)
      try tx.putLookup(
        LookupRow(key: "k", status: .match, response: "{}", fetchedAt: 3, expiresAt: 4), provider: "p",
        isNew: false)
      try tx.putLookup(row, provider: "q", isNew: true)
    }
    let cached = try db.storage.read { try $0.lookups(provider: "p", keys: ["k", "absent"]) }
    #expect(cached == ["k": LookupRow(key: "k", status: .match, response: "{}", fetchedAt: 3, expiresAt: 4)])
    #expect(try db.int("SELECT count(*) FROM enrichment_lookups") == 2)
  }
}
