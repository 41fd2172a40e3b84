import Foundation
import GRDB
import RinDomain
import RinNormalize
import RinProviderStub
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@testable import RinJobs

extension EnrichmentEndToEnd {
  /// A night after the first reads only the owners whose contacts changed, whose cached answers
  /// expired, or among whose contacts' numbers a verified Rin user changed, and of those checks
  /// only the contacts whose inputs changed, whose answers expired, or that may be a Rin user:
  /// the result must be exactly what a full check of every contact gives.
  @Suite("enrichment-fetch rechecks only what changed")
  struct EnrichmentIncrementalTests {
    /// Edits the online services could make between two nights, the same on both databases,
    /// with `updated_at` bumped as docs/JOBS.md asks of them.
    static func changeBetweenNights(_ db: TestDatabase) throws {
      // A new number on an existing contact, and a changed address on another.
      let contacts = try db.read {
        try Int64.fetchAll(
          $0, sql: "SELECT id FROM contacts WHERE deleted_at IS NULL ORDER BY id LIMIT 3 OFFSET 20")
      }
      try db.execute(
        "INSERT INTO contact_phones (contact_id, raw, label) VALUES (?, '+1 650 555 0199', 'work')",
        [contacts[0]])
      try db.execute(
        "UPDATE contact_emails SET address = 'renamed.person@initech.com' WHERE contact_id = ?", [contacts[1]]
      )
      // The user edits a field by hand.
      try db.execute("UPDATE contacts SET edited_fields = 'company' WHERE id = ?", [contacts[2]])
      try db.execute(
        "UPDATE contacts SET updated_at = ? WHERE id IN (?, ?, ?)",
        [TestClock.now + 7_200, contacts[0], contacts[1], contacts[2]])
      // Someone in many books joins Rin and verifies the number they are known by: their
      // contacts have not changed, yet must now link to them.
      let known = try db.read {
        try String.fetchOne(
          $0,
          sql: """
            SELECT p.raw FROM contact_phones p JOIN contacts c ON c.id = p.contact_id
            WHERE c.deleted_at IS NULL AND c.rin_user_id IS NULL AND p.raw LIKE '+1%'
            ORDER BY p.contact_id, p.raw LIMIT 1
            """)
      }
      let e164 = "+" + (known ?? "").filter(\.isNumber)
      try db.execute(
        """
        INSERT INTO users (id, display_name, phone_e164, phone_verified, region, timezone, created_at)
        VALUES (900001, 'New Member', ?, 1, 'US', 'America/New_York', ?)
        """, [e164, TestClock.now])
    }

    /// The next run examines every owner and checks every contact in full, as before checks
    /// existed.
    static func forgetChecks(_ db: TestDatabase) throws {
      try db.execute(
        """
        UPDATE contact_states SET check_fingerprint = NULL, check_settings = NULL, check_due_at = NULL,
          check_buckets = NULL, check_verified_key = NULL
        """)
      try db.execute("DELETE FROM owner_examinations WHERE job = 'enrichment-fetch'")
    }

    /// Every data-contract table holds the same rows on both databases. The cache holds the
    /// same answers, compared row by row in the order of their text.
    static func expectSameResult(
      _ incremental: TestDatabase, _ full: TestDatabase, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let lookups =
        "SELECT key_high || '|' || key_low || '|' || coalesce(fetched_at, -1) || '|' || expires_at || '|' || coalesce(check_high, 0) || '|' || coalesce(response, '') FROM enrichment_lookups ORDER BY 1"
      #expect(try incremental.strings(lookups) == full.strings(lookups), sourceLocation: sourceLocation)
      let tables = DataContract.allTables.filter { $0 != "enrichment_lookups" }
      let (got, want) = (try incremental.contentDigest(of: tables), try full.contentDigest(of: tables))
      #expect(
        got == want, "differ: \(got.keys.filter { got[$0] != want[$0] }.sorted())",
        sourceLocation: sourceLocation)
    }

    /// A run in which no owner's periodic pass comes round: every examination is the change's.
    static func runWithoutPeriodicPass(
      _ db: TestDatabase, _ stub: ProviderStub, now: Int64, cacheLifetime: Duration? = nil
    ) async -> RunSummary {
      var config = EnrichmentSeededTests.config(db, stub)
      config.jobs[EnrichmentFetchJob.self].fullEvery = .seconds(60 * 86_400)
      if let cacheLifetime {
        config.jobs[EnrichmentFetchJob.self].provider?.matchTTL = cacheLifetime
        config.jobs[EnrichmentFetchJob.self].provider?.noMatchTTL = cacheLifetime
      }
      return await db.run(
        EnrichmentFixture.job, TestClock.options(now: now), config: config,
        environment: RuntimeEnvironment(variables: ["SEEDED_KEY": "seeded-secret"]))
    }

    /// The same 15 seeded users twice (one to run incrementally, one to check in full), each
    /// through its first night against `stub`.
    static func twoDatabasesAfterTheirFirstNight(
      _ backend: Backend, _ stub: ProviderStub, withoutPeriodicPass: Bool = false
    ) async throws -> (TestDatabase, TestDatabase) {
      let incremental = try await offPool { try TestDatabase(backend, seedUsers: 15, seed: 5) }
      let full = try await offPool { try TestDatabase(backend, seedUsers: 15, seed: 5) }
      for db in [incremental, full] {
        let first =
          withoutPeriodicPass
          ? await runWithoutPeriodicPass(db, stub, now: TestClock.now)
          : await EnrichmentSeededTests.run(db, stub, TestClock.options())
        #expect(first.status == .succeeded)
      }
      return (incremental, full)
    }

    /// The live verified user the most live contacts of other books link to.
    static func mostLinkedVerifiedUser(_ db: TestDatabase) throws -> Int {
      try db.int(
        """
        SELECT c.rin_user_id FROM contacts c JOIN users u ON u.id = c.rin_user_id
        WHERE c.deleted_at IS NULL AND u.deleted_at IS NULL
        GROUP BY c.rin_user_id ORDER BY count(*) DESC, c.rin_user_id LIMIT 1
        """)
    }

    @Test(arguments: Backend.available) func theSecondNightEqualsAFullCheckAndLooksAtFewContacts(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let (incremental, full) = try await Self.twoDatabasesAfterTheirFirstNight(backend, stub)

      let quietNight = TestClock.options(now: TestClock.now + 3_600)
      let quiet = await EnrichmentSeededTests.run(incremental, stub, quietNight)
      // The same runs on both databases, so that run ids (in outbox dedupe keys) and fetch times agree.
      #expect(await EnrichmentSeededTests.run(full, stub, quietNight).status == .succeeded)
      let contacts = try incremental.int(
        "SELECT count(*) FROM contacts c JOIN users u ON u.id = c.user_id WHERE c.deleted_at IS NULL AND u.deleted_at IS NULL"
      )
      // Left alone: every contact of an owner not examined, and the unchanged ones of the others.
      let checked =
        (quiet.counts.read["contacts"] ?? 0)
        - (quiet.details[EnrichmentFetchDetails.self].contactsUnchanged ?? 0)
      #expect(checked * 10 <= contacts, "\(checked) of \(contacts) contacts checked on a quiet night")
      #expect((quiet.details[EnrichmentFetchDetails.self].ownersUnchanged ?? 0) > 0)

      for db in [incremental, full] { try Self.changeBetweenNights(db) }
      try Self.forgetChecks(full)
      let requestsBefore = stub.requestCount
      let night = TestClock.options(now: TestClock.now + 86_400)
      let second = await EnrichmentSeededTests.run(incremental, stub, night)
      #expect(second.status == .succeeded, "\(second.error ?? "")")
      #expect(stub.requestCount > requestsBefore, "the new number and the changed address were looked up")
      #expect(await EnrichmentSeededTests.run(full, stub, night).status == .succeeded)

      try Self.expectSameResult(incremental, full)
      #expect(
        try incremental.int("SELECT count(*) FROM contacts WHERE rin_user_id = 900001") > 0,
        "an unchanged contact linked to the user who joined")
    }

    /// An owner examined only because some of its contacts were stamped has only those read,
    /// and those whose check cannot tell by itself (here: an answer expired; a number a new
    /// member verified), each checked again; the others are known by their checks. The result is
    /// a full check's.
    @Test(arguments: Backend.available) func anOwnerWithStampedChangesHasOnlyThoseContactsRead(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let (incremental, full) = try await Self.twoDatabasesAfterTheirFirstNight(backend, stub)
      let owners = try incremental.strings(
        """
        SELECT user_id || ' ' || min(id) || ' ' || max(id) FROM contacts WHERE deleted_at IS NULL
        GROUP BY user_id HAVING count(*) >= 5 ORDER BY user_id LIMIT 2
        """
      ).map { $0.split(separator: " ").compactMap { Int64($0) } }
      try #require(owners.count == 2)
      for db in [incremental, full] {
        for owner in owners {
          try db.execute(
            "INSERT INTO contact_phones (contact_id, raw, label) VALUES (?, '+1 650 555 0199', 'work')",
            [owner[1]])
          try db.execute(
            "UPDATE contacts SET updated_at = ? WHERE id = ?", [TestClock.now + 7_200, owner[1]])
        }
      }
      // Someone the first owner knows by an unstamped contact's number joins Rin and verifies it:
      // that contact's check no longer tells (other verified users in its buckets), so it is read.
      let known = try incremental.strings(
        """
        SELECT p.contact_id || ' ' || p.raw FROM contact_phones p JOIN contacts c ON c.id = p.contact_id
        WHERE c.user_id = ? AND c.id <> ? AND c.deleted_at IS NULL AND c.rin_user_id IS NULL AND p.raw LIKE '+1%'
        ORDER BY p.contact_id, p.raw LIMIT 1
        """, [owners[0][0], owners[0][1]])
      let joined = try #require(known.first.map { $0.split(separator: " ", maxSplits: 1).map(String.init) })
      for db in [incremental, full] {
        try db.execute(
          """
          INSERT INTO users (id, display_name, phone_e164, phone_verified, region, timezone, created_at)
          VALUES (900002, 'New Member', ?, 1, 'US', 'America/New_York', ?)
          """, ["+" + joined[1].filter(\.isNumber), TestClock.now])
      }
      // The second owner's last contact, not stamped, has a cached answer that expired.
      try incremental.execute(
        "UPDATE contact_states SET check_due_at = ? WHERE contact_id = ?",
        [TestClock.now + 3_600, owners[1][2]])
      try Self.forgetChecks(full)
      let night = TestClock.options(now: TestClock.now + 86_400)
      let run = await EnrichmentSeededTests.run(incremental, stub, night)
      #expect(run.status == .succeeded, "\(run.error ?? "")")
      #expect(await EnrichmentSeededTests.run(full, stub, night).status == .succeeded)
      #expect(
        (run.counts.read["contacts left to their checks (not read)"] ?? 0) > 0, "\(run.counts.read)")
      // Checked again, its check is due when its cached answers expire, no longer tonight.
      let checks = try incremental.storage.read {
        try EnrichmentQueries(tx: $0).enrichmentChecks(of: [UserID(rawValue: owners[1][0])])
      }
      let due = checks.first { $0.contactID.rawValue == owners[1][2] }?.check?.dueAt
      #expect(
        due.map { $0.seconds > TestClock.now + 86_400 } ?? true,
        "the due contact was checked again: \(String(describing: due))")
      #expect(
        try incremental.int(
          "SELECT count(*) FROM contacts WHERE id = ? AND rin_user_id = 900002", [joined[0]]) == 1,
        "the contact whose number the new member verified is linked")
      try Self.expectSameResult(incremental, full)
    }

    /// An owner left alone for weeks is examined again when one of their cached answers
    /// expires (`due`: no-match answers after 30 days, with `full_every` longer than that), and
    /// then gets exactly what a full check gives: the expired keys are asked again. The periodic
    /// pass reads their contacts and, nothing having changed unstamped, sends nobody back;
    /// `--full` examines everyone.
    @Test(arguments: Backend.available)
    func ownersComeBackWhenTheirAnswersExpireAndThePassFindsNothingUnstamped(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let incremental = try await offPool { try TestDatabase(backend, seedUsers: 12, seed: 3) }
      let full = try await offPool { try TestDatabase(backend, seedUsers: 12, seed: 3) }
      func run(_ db: TestDatabase, days: Int64, full: Bool = false) async -> RunSummary {
        var config = EnrichmentSeededTests.config(db, stub)
        config.jobs[EnrichmentFetchJob.self].fullEvery = .seconds(60 * 86_400)
        return await db.run(
          EnrichmentFixture.job, TestClock.options(now: TestClock.now + days * 86_400, full: full),
          config: config, environment: RuntimeEnvironment(variables: ["SEEDED_KEY": "seeded-secret"]))
      }
      for db in [incremental, full] { #expect(await run(db, days: 0).status == .succeeded) }

      // 31 days on: every no-match answer (30 days) has expired, no match (90 days) has.
      let requestsBefore = stub.requestCount
      try Self.forgetChecks(full)
      let night = await run(incremental, days: 31)
      #expect(night.status == .succeeded, "\(night.error ?? "")")
      #expect(await run(full, days: 31).status == .succeeded)
      #expect(stub.requestCount > requestsBefore, "expired no-match answers were asked again")
      #expect((night.counts.read["users examined (due)"] ?? 0) > 0, "\(night.counts.read)")
      try Self.expectSameResult(incremental, full)

      // The next night no answer is due; 29 days later the pass has read about half of the
      // contacts (`PeriodicPass`), and found none changed without a stamp.
      let quiet = await run(incremental, days: 32)
      let users = quiet.counts.read["users"] ?? 0
      #expect(users > 0 && quiet.counts.read["users examined (due)"] == nil, "\(quiet.counts.read)")
      let periodic = await run(incremental, days: 61)
      #expect((periodic.counts.read["contacts passed"] ?? 0) > 0, "\(periodic.counts.read)")
      #expect(periodic.counts.read["users examined (periodic)"] == nil, "\(periodic.counts.read)")
      let forced = await run(incremental, days: 62, full: true)
      #expect(forced.counts.read["users examined (forced)"] == users, "\(forced.counts.read)")
    }

    /// A number typed in full-width digits and plus sign, as some keyboards write it.
    static func fullWidth(_ number: String) -> String {
      String(String.UnicodeScalarView(number.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0) ?? $0 }))
    }

    /// For each E.164 form, the live owners with a live contact number that has it, each number
    /// read in its owner's region as the Rin-network rule reads it.
    static func ownersKnowing(_ db: TestDatabase) throws -> [String: Set<String>] {
      let numbers = try db.strings(
        """
        SELECT c.user_id || char(31) || coalesce(u.region, '') || char(31) || p.raw
        FROM contact_phones p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.id = c.user_id
        WHERE c.deleted_at IS NULL AND u.deleted_at IS NULL AND p.raw IS NOT NULL
        """)
      var owners: [String: Set<String>] = [:]
      for line in numbers {
        let parts = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        let region = PhoneNormalizer.region(from: parts[1].isEmpty ? nil : parts[1])
        guard let e164 = PhoneNormalizer.parse(raw: parts[2], defaultRegion: region)?.e164 else { continue }
        owners[e164, default: []].insert(parts[0])
      }
      return owners
    }

    /// A phone verified or an account deleted re-examines only the owners with a contact number
    /// that can be that user's, however it was typed (docs/JOBS.md "A night looks only at what
    /// changed"): a number with an extension is bucketed by its E.164 form and one without an
    /// E.164 form by nothing, not by every verified user. The rows equal a full check's.
    @Test(arguments: Backend.available) func aPhoneVerifiedOrAnAccountDeletedExaminesOnlyTheOwnersWhoKnowThem(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let incremental = try await offPool { try TestDatabase(backend, seedUsers: 15, seed: 5) }
      let full = try await offPool { try TestDatabase(backend, seedUsers: 15, seed: 5) }
      func run(_ db: TestDatabase, now: Int64) async -> RunSummary {
        await Self.runWithoutPeriodicPass(db, stub, now: now)
      }
      // The user who verifies tonight and the one who leaves: the two known by the fewest
      // owners, so that few are examined. Three owners get a contact: two know them by numbers
      // the digits cannot judge (an extension, full-width digits), one by no number at all.
      let before = try Self.ownersKnowing(incremental)
      let users = try incremental.strings(
        "SELECT id || ' ' || phone_e164 FROM users WHERE deleted_at IS NULL AND phone_e164 IS NOT NULL ORDER BY id"
      ).map { $0.split(separator: " ").map(String.init) }.map { (id: $0[0], phone: $0[1]) }
      let fewest = users.sorted {
        (before[$0.phone, default: []].count, Int($0.id) ?? 0) < (
          before[$1.phone, default: []].count, Int($1.id) ?? 0
        )
      }
      try #require(fewest.count >= 5)
      let (verifies, leaves) = (fewest[0], fewest[1])
      let strangers = fewest.dropFirst(2).map(\.id).filter {
        !before[verifies.phone, default: []].contains($0) && !before[leaves.phone, default: []].contains($0)
      }
      try #require(strangers.count >= 3)
      let owners = (strangers[0], strangers[1], strangers[2])
      for db in [incremental, full] {
        try db.execute("UPDATE users SET phone_verified = 0 WHERE id = ?", [verifies.id])
        try db.execute("UPDATE users SET phone_verified = 1 WHERE id = ?", [leaves.id])
        try db.execute(
          """
          INSERT INTO contacts (id, user_id, given_name, created_at, updated_at) VALUES
            (9000001, ?, 'Extension', ?, ?), (9000002, ?, 'Full width', ?, ?), (9000003, ?, 'Nobody', ?, ?)
          """,
          [
            owners.0, TestClock.now, TestClock.now, owners.1, TestClock.now, TestClock.now, owners.2,
            TestClock.now, TestClock.now,
          ])
        try db.execute(
          """
          INSERT INTO contact_phones (contact_id, raw, label) VALUES
            (9000001, ?, 'work'), (9000002, ?, 'mobile'), (9000003, 'ask at the desk', 'work')
          """, [verifies.phone + " ext. 12", Self.fullWidth(leaves.phone)])
        #expect(await run(db, now: TestClock.now).status == .succeeded)
      }

      for db in [incremental, full] {
        try db.execute("UPDATE users SET phone_verified = 1 WHERE id = ?", [verifies.id])
        try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [TestClock.now + 3_600, leaves.id])
      }
      try Self.forgetChecks(full)
      let nightAt = TestClock.now + 86_400
      let night = await run(incremental, now: nightAt)
      #expect(night.status == .succeeded, "\(night.error ?? "")")
      #expect(await run(full, now: nightAt).status == .succeeded)
      try Self.expectSameResult(incremental, full)

      // Whom the rule can link to either user: live owners with a number whose E.164 form is theirs.
      let after = try Self.ownersKnowing(incremental)
      let knowing = after[verifies.phone, default: []].union(after[leaves.phone, default: []])
      #expect(knowing.isSuperset(of: [owners.0, owners.1]) && !knowing.contains(owners.2))
      let total = night.counts.read["users"] ?? 0
      #expect(total - (night.counts.read["users unchanged"] ?? 0) == knowing.count, "\(night.counts.read)")
      #expect(night.counts.read["users examined (changed)"] == knowing.count, "\(night.counts.read)")
      if backend == .sqlite {  // the PostgreSQL snapshot holds no runtime table of ours
        let examined = try incremental.strings(
          "SELECT CAST(user_id AS TEXT) FROM owner_examinations WHERE job = 'enrichment-fetch' AND examined_at = ?",
          [nightAt])
        #expect(Set(examined) == knowing)
      }
      #expect(
        try incremental.int(
          "SELECT count(*) FROM contacts WHERE id = 9000001 AND rin_user_id = ?", [verifies.id])
          == 1, "the number with an extension links to the user who verified it")
    }

    /// A verified user's deletion changes the books that held their number, but a contact whose
    /// numbers now fall in buckets without any verified user is settled by its check alone (its
    /// numbers can be nobody's): stored with tonight's key, not read, not parsed. The result is a
    /// full check's, and the next night leaves those owners alone.
    @Test(arguments: Backend.available) func aDeletedUsersContactsAreSettledByTheirChecks(backend: Backend)
      async throws
    {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let (incremental, full) = try await Self.twoDatabasesAfterTheirFirstNight(
        backend, stub, withoutPeriodicPass: true)
      func run(_ db: TestDatabase, now: Int64) async -> RunSummary {
        await Self.runWithoutPeriodicPass(db, stub, now: now)
      }
      let leaves = try Self.mostLinkedVerifiedUser(incremental)
      let linking = try incremental.int(
        "SELECT count(*) FROM contacts WHERE rin_user_id = ? AND deleted_at IS NULL", [leaves])
      try #require(linking >= 2)
      for db in [incremental, full] {
        try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [TestClock.now + 3_600, leaves])
      }
      try Self.forgetChecks(full)
      let nightAt = TestClock.now + 86_400
      let night = await run(incremental, now: nightAt)
      #expect(night.status == .succeeded, "\(night.error ?? "")")
      #expect(await run(full, now: nightAt).status == .succeeded)
      try Self.expectSameResult(incremental, full)
      let settled =
        night.counts.read["contacts whose checks settled a verified user's change (not read)"] ?? 0
      #expect(settled >= linking, "\(night.counts.read)")
      #expect(
        (night.counts.read["contacts"] ?? 0)
          - (night.details[EnrichmentFetchDetails.self].contactsUnchanged ?? 0)
          < linking,
        "the linking contacts were not checked again: \(night.counts.read)")

      let next = await run(incremental, now: nightAt + 86_400)
      #expect(next.status == .succeeded)
      #expect((next.counts.read["users examined (changed)"] ?? 0) == 0, "\(next.counts.read)")
    }

    /// An owner whose only change is that a verified user in their buckets left has only the
    /// contacts that were in that user's buckets checked, not the rest of the book: those linked
    /// to the user, and one whose numbers are also another user's (ambiguous, so linked to
    /// nobody, and no link leads to it), which the departure leaves that other user's. The
    /// result is a full check's.
    @Test(arguments: Backend.available) func aDepartedUsersContactsAloneAreCheckedAgain(backend: Backend)
      async throws
    {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let (incremental, full) = try await Self.twoDatabasesAfterTheirFirstNight(
        backend, stub, withoutPeriodicPass: true)
      func run(_ db: TestDatabase, now: Int64) async -> RunSummary {
        await Self.runWithoutPeriodicPass(db, stub, now: now)
      }
      let leaves = try Self.mostLinkedVerifiedUser(incremental)
      // A new contact, in the book of an owner linked to the user who leaves, with that user's
      // number and a second user's.
      let owner = try incremental.int(
        "SELECT user_id FROM contacts WHERE rin_user_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 1",
        [leaves])
      let stays = try incremental.int(
        """
        SELECT min(id) FROM users WHERE phone_verified = 1 AND deleted_at IS NULL
          AND phone_e164 IS NOT NULL AND id NOT IN (?, ?)
        """, [leaves, owner])
      let ambiguous = try incremental.int("SELECT max(id) + 1 FROM contacts")
      let dayAt = TestClock.now + 43_200
      for db in [incremental, full] {
        try db.execute(
          "INSERT INTO contacts (id, user_id, given_name, created_at) VALUES (?, ?, 'Two Numbers', ?)",
          [ambiguous, owner, dayAt])
        try db.execute(
          """
          INSERT INTO contact_phones (contact_id, raw, label)
            SELECT ?, phone_e164, 'mobile' FROM users WHERE id IN (?, ?)
          """, [ambiguous, leaves, stays])
        #expect(await run(db, now: TestClock.now + 86_400).status == .succeeded)
      }
      #expect(
        try incremental.int("SELECT count(*) FROM contacts WHERE id = ? AND rin_user_id IS NULL", [ambiguous])
          == 1)
      let linking = try incremental.int(
        "SELECT count(*) FROM contacts WHERE rin_user_id = ? AND deleted_at IS NULL", [leaves])
      try #require(linking >= 2)
      for db in [incremental, full] {
        try db.execute(
          "UPDATE users SET deleted_at = ? WHERE id = ?", [TestClock.now + 86_400 + 3_600, leaves])
      }
      try Self.forgetChecks(full)
      let nightAt = TestClock.now + 2 * 86_400
      let night = await run(incremental, now: nightAt)
      #expect(night.status == .succeeded, "\(night.error ?? "")")
      #expect(await run(full, now: nightAt).status == .succeeded)
      try Self.expectSameResult(incremental, full)
      #expect(try incremental.int("SELECT rin_user_id FROM contacts WHERE id = ?", [ambiguous]) == stays)
      let owners = night.counts.read["users examined (changed)"] ?? 0
      #expect(owners >= 2, "\(night.counts.read)")
      #expect(
        night.counts.read["users whose departed verified users' contacts alone were checked"] == owners,
        "\(night.counts.read)")
      // Only the contacts in the departed user's bucket: those linked to it, and the ambiguous one.
      #expect((night.counts.read["contacts"] ?? 0) == linking + 1, "\(night.counts.read)")

      let next = await run(incremental, now: nightAt + 86_400)
      #expect(next.status == .succeeded)
      #expect((next.counts.read["users examined (changed)"] ?? 0) == 0, "\(next.counts.read)")
    }

    /// The cache's lifetimes grow from 30 and 90 days to a year on the night of a departure: the
    /// owners' visits are a year apart, the next one further than the due time their buckets
    /// were kept for, and a visit asks again every answer expiring before it. The departed
    /// user's owners then go the usual way, as they do without the list of their buckets.
    @Test(arguments: Backend.available) func aDepartureAfterTheCacheLivesLongerReadsTheUsualWay(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let (incremental, usual) = try await Self.twoDatabasesAfterTheirFirstNight(
        backend, stub, withoutPeriodicPass: true)
      let leaves = try Self.mostLinkedVerifiedUser(incremental)
      for db in [incremental, usual] {
        try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [TestClock.now + 3_600, leaves])
      }
      try usual.execute("UPDATE enrichment_owner_buckets SET occupied = NULL")
      let nightAt = TestClock.now + 86_400
      let year = Duration.seconds(365 * 86_400)
      let night = await Self.runWithoutPeriodicPass(incremental, stub, now: nightAt, cacheLifetime: year)
      #expect(night.status == .succeeded, "\(night.error ?? "")")
      #expect(
        await Self.runWithoutPeriodicPass(usual, stub, now: nightAt, cacheLifetime: year).status == .succeeded
      )
      try Self.expectSameResult(incremental, usual)
      #expect((night.counts.read["users examined (changed)"] ?? 0) >= 2, "\(night.counts.read)")
      #expect(
        (night.counts.read["users whose departed verified users' contacts alone were checked"] ?? 0) == 0,
        "\(night.counts.read)")
    }

    @Test(arguments: Backend.available) func changedSettingsRecheckEveryContact(backend: Backend) async throws
    {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: false)
      defer { Task { await stub.stop() } }
      let db = try await offPool { try TestDatabase(backend, seedUsers: 6, seed: 9) }
      #expect(await EnrichmentSeededTests.run(db, stub, TestClock.options()).status == .succeeded)
      var config = EnrichmentSeededTests.config(db, stub)
      config.jobs[EnrichmentFetchJob.self].provider?.minLikelihood = 3
      let rerun = await db.run(
        EnrichmentFixture.job, TestClock.options(now: TestClock.now + 60), config: config,
        environment: RuntimeEnvironment(variables: ["SEEDED_KEY": "seeded-secret"]))
      #expect(rerun.status == .succeeded, "\(rerun.error ?? "")")
      #expect(rerun.details[EnrichmentFetchDetails.self].contactsUnchanged == 0)
      #expect(
        try db.int(
          "SELECT count(*) FROM contact_enrichments WHERE source = 'fake-people' AND confidence < 0.6")
          > 0,
        "matches of likelihood 3 to 5 are written now")
    }
  }
}
