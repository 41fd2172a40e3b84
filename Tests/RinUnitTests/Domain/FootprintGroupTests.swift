import Foundation
import RinDomain
import RinStorage
import RinTestSupport
import Testing

@Suite("footprint: the groups of tables and indexes, and the figures over them", .onItsOwnThread)
struct FootprintGroupTests {
  static let classifier = FootprintClassifier(
    inputTables: Set(DataContract.inputTables), outputTables: Set(DataContract.outputTables),
    cacheTables: Set(DataContract.cacheTables), servicesIndexes: Set(DataContract.servicesIndexes.values))

  static func group(_ name: String, on table: String, key: Bool = false) -> FootprintGroup {
    classifier.group(name: name, kind: name == table ? .table : .index, table: table, isKey: key)
  }

  @Test func inputTablesTheirKeysAndTheirOwnerIndexesAreTheServices() {
    for table in DataContract.inputTables { #expect(Self.group(table, on: table) == .services, "\(table)") }
    #expect(Self.group("contacts_by_user", on: "contacts") == .services)
    #expect(Self.group("circles_by_user", on: "circles") == .services)
    #expect(Self.group("invite_shares_by_inviter", on: "invite_shares") == .services)
    #expect(Self.group("users_pkey", on: "users", key: true) == .services)
    #expect(Self.group("sqlite_autoindex_invite_links_1", on: "invite_links", key: true) == .services)
    // The plain channel index (SQLite's again since issue 53), and one a migration dropped where
    // it is still there.
    #expect(Self.group("contact_phones_by_contact", on: "contact_phones") == .services)
    #expect(Self.group("circle_members_by_circle", on: "circle_members") == .services)
  }

  @Test func everyOtherIndexOnAnInputTableIsOurs() {
    for (name, table) in [
      ("contact_phones_by_contact_with_raw", "contact_phones"), ("contacts_for_score_by_user", "contacts"),
      ("contacts_by_change", "contacts"), ("contacts_birthday_days_by_user", "contacts"),
      ("circle_members_by_circle_with_added_at", "circle_members"),
      ("circle_members_by_contact", "circle_members"), ("users_by_phone", "users"),
      ("invite_clicks_by_time", "invite_clicks"),
    ] {
      #expect(Self.group(name, on: table) == .ourIndexes, "\(name)")
    }
  }

  @Test func theServicesHaveOneIndexPerTableAtMostAndOnlyOnInputTables() {
    #expect(Set(DataContract.servicesIndexes.keys).isSubset(of: Set(DataContract.inputTables)))
    #expect(Set(DataContract.servicesIndexesOnPostgres.keys).isSubset(of: Set(DataContract.inputTables)))
  }

  @Test func outputsCacheAndStateTakeEveryIndexOfTheirTables() {
    #expect(Self.group("score_snapshots", on: "score_snapshots") == .outputs)
    #expect(Self.group("score_snapshots_by_day", on: "score_snapshots") == .outputs)
    #expect(Self.group("notification_outbox_by_user", on: "notification_outbox") == .outputs)
    #expect(Self.group("enrichment_lookups", on: "enrichment_lookups") == .cache)
    #expect(
      Self.group("sqlite_autoindex_enrichment_lookups_1", on: "enrichment_lookups", key: true) == .cache)
    for table in [
      "job_runs", "score_contact_facts", "owner_examinations", "grdb_migrations", "rin_migrations",
    ] {
      #expect(Self.group(table, on: table) == .state, "\(table)")
    }
    #expect(Self.group("job_runs_by_job", on: "job_runs") == .state)
    #expect(Self.group("contacts_by_user", on: "job_runs") == .state, "the table decides, not the name")
  }

  static let footprint = Footprint(
    backend: "sqlite", users: 4, rowsEstimated: false,
    relations: [
      FootprintRelation(
        name: "contacts", kind: .table, table: "contacts", group: .services, bytes: 1_000, rows: 9),
      FootprintRelation(
        name: "contacts_by_user", kind: .index, table: "contacts", group: .services, bytes: 200, rows: 9),
      FootprintRelation(
        name: "contacts_by_change", kind: .index, table: "contacts", group: .ourIndexes, bytes: 300, rows: 9),
      FootprintRelation(
        name: "score_snapshots", kind: .table, table: "score_snapshots", group: .outputs, bytes: 5_000,
        rows: 3),
      FootprintRelation(
        name: "enrichment_lookups", kind: .table, table: "enrichment_lookups", group: .cache, bytes: 400,
        rows: nil),
      FootprintRelation(
        name: "job_runs", kind: .table, table: "job_runs", group: .state, bytes: 100, rows: 2),
    ])

  @Test func keptIsStateCacheAndOurIndexesOverTheServices() {
    let footprint = Self.footprint
    #expect(footprint.total(.services).bytes == 1_200)
    #expect(footprint.total(.services).tables == 1 && footprint.total(.services).indexes == 1)
    #expect(footprint.keptBytes == 800)
    #expect(footprint.totalBytes == 7_000)
    #expect(footprint.keptToServices == 800.0 / 1_200.0)
    #expect(footprint.bytesPerUser == 1_750)
    #expect(footprint.isWithinTarget == true)
    #expect(footprint.relations.map(\.name).prefix(2) == ["score_snapshots", "contacts"], "largest first")
    let pairs = footprint.bytesByTableAndGroup.map { "\($0.table)/\($0.group.rawValue)=\($0.bytes)" }
    #expect(
      pairs == [
        "contacts/services=1200", "contacts/our_indexes=300", "enrichment_lookups/cache=400",
        "job_runs/state=100", "score_snapshots/outputs=5000",
      ])
  }

  @Test func noServicesBytesMeansNoRatioAndNoUsersNoBytesPerUser() {
    let empty = Footprint(backend: "postgres", users: 0, rowsEstimated: true, relations: [])
    #expect(empty.keptToServices == nil && empty.bytesPerUser == nil && empty.isWithinTarget == nil)
    #expect(empty.keptTarget == 1)
  }

  @Test func theJSONWritesUnknownRowsAndEveryGroup() throws {
    let data = try JSONEncoder().encode(Self.footprint)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set((json["groups"] as? [String: Any] ?? [:]).keys) == Set(FootprintGroup.allCases.map(\.rawValue)))
    #expect(json["kept_bytes"] as? Int == 800)
    #expect(json["kept_target"] as? Double == 1.5)
    let relations = json["relations"] as? [[String: Any]] ?? []
    let lookups = relations.first { $0["name"] as? String == "enrichment_lookups" }
    #expect(lookups?.keys.contains("rows") == true && lookups?["rows"] is NSNull)
    #expect(lookups?["group"] as? String == "cache")
  }

  @Test func sizesReadForPeople() {
    #expect(ByteCountFormat.human(812) == "812 B")
    #expect(ByteCountFormat.human(4_096) == "4.0 KiB")
    #expect(ByteCountFormat.human(13_107_200) == "12.5 MiB")
    #expect(ByteCountFormat.human(3 * 1_073_741_824) == "3.0 GiB")
    #expect(ByteCountFormat.grouped(129_394_688) == "129,394,688")
  }
}
