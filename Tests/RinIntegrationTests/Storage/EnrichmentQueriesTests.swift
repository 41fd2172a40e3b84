import RinDomain
import RinStorage
import RinTestSupport
import Testing

@testable import RinJobs

@Suite("enrichment queries", .onItsOwnThread)
struct EnrichmentQueriesTests {
  /// Values travel as one parameter (a JSON array: json_each on SQLite,
  /// jsonb on PostgreSQL); odd characters must survive it.
  @Test(arguments: Backend.available) func valueSetsCarryAnyStringThroughTheirOneParameter(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend)
    let odd = [#"+1"2"#, #"a\b"#, "tab\there", "nul\u{1}x", "é日本", "plain"]
    for (index, phone) in odd.enumerated() {
      try db.execute(
        "INSERT INTO users (id, phone_e164, phone_verified, created_at) VALUES (?, ?, 1, 0)",
        [index + 1, phone])
    }
    try db.execute(
      "INSERT INTO users (id, phone_e164, phone_verified, created_at) VALUES (99, 'other', 1, 0)")
    let found = try db.storage.read {
      try EnrichmentQueries(tx: $0).verifiedUsers(withPhones: Set(odd + ["missing"]))
    }
    #expect(
      found
        == Dictionary(uniqueKeysWithValues: odd.enumerated().map { ($1, [UserID(rawValue: Int64($0 + 1))]) }))
  }

  @Test(arguments: Backend.available) func aLookupIsCachedOncePerProviderAndKey(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let row = LookupRow(key: "k", status: .noMatch, response: nil, fetchedAt: 1, expiresAt: 2)
    try db.storage.write { tx in
      try EnrichmentQueries(tx: tx).putLookup(row, provider: "p", isNew: true)
      try EnrichmentQueries(tx: tx).putLookup(
        LookupRow(key: "k", status: .match, response: "{}", fetchedAt: 3, expiresAt: 4), provider: "p",
        isNew: false)
      try EnrichmentQueries(tx: tx).putLookup(row, provider: "q", isNew: true)
    }
    let cached = try db.storage.read {
      try EnrichmentQueries(tx: $0).lookups(provider: "p", keys: ["k", "absent"])
    }
    #expect(cached == ["k": LookupRow(key: "k", status: .match, response: "{}", fetchedAt: 3, expiresAt: 4)])
    #expect(try db.int("SELECT count(*) FROM enrichment_lookups") == 2)
  }

  /// A contact's fingerprint hashes its phones and emails in the order read: that order must not
  /// follow where rows happen to lie (on PostgreSQL an updated row moves, and joins hash).
  @Test(arguments: Backend.available) func aContactsPhonesAndEmailsAlwaysComeInByteOrder(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend)
    try db.execute(
      """
      INSERT INTO users (id, created_at) VALUES (1, 0);
      INSERT INTO contacts (id, user_id, created_at) VALUES (10, 1, 0), (11, 1, 0);
      INSERT INTO contact_phones (contact_id, raw) VALUES (10, '+3'), (11, '+9'), (10, '+1'), (10, '+2');
      INSERT INTO contact_emails (contact_id, address) VALUES (10, 'b@x'), (10, 'B@x'), (10, 'a@x');
      UPDATE contact_phones SET label = 'moved' WHERE raw = '+1';
      """)
    let contacts = try db.storage.read { try EnrichmentQueries(tx: $0).enrichmentContacts(of: [1]) }
    #expect(contacts.map(\.id) == [10, 11])
    #expect(contacts.first?.phones == ["+1", "+2", "+3"])
    #expect(contacts.first?.emails == ["B@x", "a@x", "b@x"])
  }

  /// The services may write a phone or address of any length (docs/CONTRACT.md §2: no constraints on
  /// input): no index of ours may refuse it (a PostgreSQL btree entry holds about 2.7 KB).
  @Test(arguments: Backend.available) func aPhoneOrAddressOfAnyLengthCanBeWrittenAndRead(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend)
    // Digits that do not compress (PostgreSQL compresses a value before indexing it).
    var state: UInt64 = 42
    let long = String(
      (0..<50_000).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Character(String((state >> 60) % 10))
      })
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0)")
    try db.execute("INSERT INTO contacts (id, user_id, created_at) VALUES (10, 1, 0)")
    try db.execute("INSERT INTO contact_phones (contact_id, raw) VALUES (10, ?)", [long])
    try db.execute("INSERT INTO contact_emails (contact_id, address) VALUES (10, ?)", [long + "@x"])
    let contacts = try db.storage.read { try EnrichmentQueries(tx: $0).enrichmentContacts(of: [1]) }
    #expect(contacts.first?.phones == [long])
    #expect(contacts.first?.emails == [long + "@x"])
  }
}
