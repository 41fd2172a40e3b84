import RinDomain

/// Where a job's periodic pass (`PeriodicPass`) stands for one scope (`all` or `INDEX/COUNT`).
public struct PeriodicPassState: Sendable, Equatable {
  /// The `now` of the last run whose pass went through all its due blocks.
  public var passedAt: UTCInstant
  /// When the job's first pass began. For one period after it, a contact without a stored
  /// digest is given one without examining its owner (see `PeriodicContactPass`).
  public var startedAt: UTCInstant

  public init(passedAt: UTCInstant, startedAt: UTCInstant) {
    self.passedAt = passedAt
    self.startedAt = startedAt
  }
}

/// A contact's digest for a job (its column of `contact_states`), with its owner.
public struct ContactDigest: Sendable, Equatable {
  public var contactID: ContactID
  public var userID: UserID
  public var digest: Int64

  public init(contactID: ContactID, userID: UserID, digest: Int64) {
    self.contactID = contactID
    self.userID = userID
    self.digest = digest
  }
}

/// One contact of a block whose digest for a job differs from the one stored (or has none).
public struct DifferingContact: Sendable, Equatable {
  /// The contact, its owner, and its digest as computed tonight.
  public var digest: ContactDigest
  public var hadDigest: Bool

  public var contactID: ContactID { digest.contactID }
  public var userID: UserID { digest.userID }

  public init(_ digest: ContactDigest, hadDigest: Bool) {
    self.digest = digest
    self.hadDigest = hadDigest
  }
}

/// What the pass read of one block range for the jobs it passed for.
public struct PassedRange: Sendable, Equatable {
  /// The contacts the range holds, live or not.
  public var contacts: Int
  /// Per job, the live contacts whose digest differs from the one stored for it.
  public var differing: [JobName: [DifferingContact]]
}

/// The periodic pass on the server. A live contact's digest for a job is the sum of
/// terms the database computes, a 32-bit hash each: of the row's column the job reads
/// (`contactTerm`), of each number (`phoneTerm`) and of each address (`emailTerm`). The pass
/// computes it where the rows are, a block of ids at a time, and compares it there with the
/// digest stored for the job (its column of `contact_states`); only the contacts that differ
/// come back. The
/// owners they belong to wait in `periodic_pass_owners` until the job's batch of that owner
/// examines them. An examination reads the same terms beside the rows it reads, and stores their
/// sum: the digest of exactly what it saw.
extension StorageTransaction {
  /// The state of `job`'s pass for `scope`. A scope without one (a new shard count) takes the
  /// latest pass of the job's scopes under another shard count (`all` among them), so that
  /// changing the shards neither repeats nor skips a night; nil when the job never passed. A
  /// sibling shard of the same count is never taken: the first of them to run tonight would
  /// stand for the others, which would then skip tonight's blocks.
  public func periodicPassState(job: JobName, scope: String) throws -> PeriodicPassState? {
    var own: PeriodicPassState?
    var latest: PeriodicPassState?
    let siblings = scope.firstIndex(of: "/").map { String(scope[$0...]) }
    try sql.forEachInBatch(
      PeriodicPassRow.self,
      "SELECT \(columns: PeriodicPassRow.Columns.self) FROM periodic_passes WHERE job = \(SQLValue(job))"
    ) { row in
      let (other, passed, started) = (row.scope, row.passedAt, row.startedAt)
      let state = PeriodicPassState(passedAt: passed, startedAt: started)
      if other == scope { own = state }
      if let siblings, other.hasSuffix(siblings) { return }
      if latest.map({ passed > $0.passedAt }) ?? true {
        latest = PeriodicPassState(passedAt: passed, startedAt: min(started, latest?.startedAt ?? started))
      }
    }
    return own ?? latest
  }

  public func savePeriodicPass(_ state: PeriodicPassState, job: JobName, scope: String) throws {
    try sql.execute(
      """
      INSERT INTO periodic_passes (job, scope, passed_at, started_at) VALUES (\(SQLValue(job)), \(.text(scope)), \(.instant(state.passedAt)), \(.instant(state.startedAt)))
      ON CONFLICT (job, scope) DO UPDATE SET passed_at = excluded.passed_at, started_at = excluded.started_at
      """)
  }

  /// The largest contact id, or -1 without contacts.
  public func maxContactID() throws -> Int64 {
    try sql.integerValue("SELECT max(id) AS value FROM contacts") ?? -1
  }

  /// The contacts with ids in `ids` whose digest for each of `jobs` differs from the one stored
  /// for it, with how many contacts the range holds. The jobs' digests share their numbers' and
  /// addresses' terms: one read of each table serves every job (`PeriodicContactPass` passes for
  /// circle-patterns and enrichment-fetch together). Range reads of contacts, numbers, addresses
  /// and of each job's stored digests, joined on the server.
  public func contactsDifferingFromDigests(jobs: [JobName], ids: Range<Int64>) throws -> PassedRange {
    precondition(!jobs.isEmpty)
    let dialect = sql.dialect
    let (low, high) = (ids.lowerBound, ids.upperBound)
    let contacts = Int64(
      try sql.count("SELECT count(*) AS count FROM contacts WHERE id >= \(low) AND id < \(high)"))
    let numbered = jobs.enumerated()
    let columns = numbered.map { i, job in
      "\(dialect.contactTerm(of: job, "c")) + coalesce(p.h, 0) + coalesce(e.h, 0) AS d\(i), k.\(Self.digestColumn(of: job)) AS s\(i)"
    }
    // Every table is read by the same id range (the stored digests too: joined by contact
    // alone, PostgreSQL hashed the whole table). Contacts of deleted users are left out: no
    // batch examines them. Their owner is looked up per differing contact (a subquery, not
    // `EXISTS`, which PostgreSQL made a hash join over every user, once per block). `OFFSET 0`
    // keeps the digests computed once per contact.
    let stored = jobs.map { Self.digestColumn(of: $0) }.joined(separator: ", ")
    let storedJoin: SQLFragment = """
      LEFT JOIN (SELECT contact_id, \(literal: stored) FROM contact_states
          WHERE contact_id >= \(low) AND contact_id < \(high)) k ON k.contact_id = c.id
      """
    let differs = numbered.map { i, _ in "x.s\(i) IS NULL OR x.s\(i) <> x.d\(i)" }
    var differing: [JobName: [DifferingContact]] = [:]
    typealias Named = RepeatedColumns<ContactDigestsRow.Group>
    let named = numbered.map { i, _ in
      "x.d\(i) AS \(Named.name(.digest, item: i)), x.s\(i) AS \(Named.name(.stored, item: i))"
    }
    try sql.forEachInBatch(
      ContactDigestsRow.self, groups: jobs.count,
      """
      SELECT x.id, x.user_id, \(literal: named.joined(separator: ", ")) FROM (
        SELECT c.id, c.user_id, \(literal: columns.joined(separator: ", "))
        FROM contacts c
        LEFT JOIN (SELECT contact_id, sum(\(literal: dialect.phoneTerm("p"))) AS h FROM contact_phones p
          WHERE contact_id >= \(low) AND contact_id < \(high) GROUP BY contact_id) p ON p.contact_id = c.id
        LEFT JOIN (SELECT contact_id, sum(\(literal: dialect.emailTerm("e"))) AS h FROM contact_emails e
          WHERE contact_id >= \(low) AND contact_id < \(high) GROUP BY contact_id) e ON e.contact_id = c.id
        \(storedJoin)
        WHERE c.id >= \(low) AND c.id < \(high) AND c.deleted_at IS NULL\(literal: dialect.evaluatedOnce)) x
      WHERE (\(literal: differs.joined(separator: " OR ")))
        AND coalesce((SELECT u.deleted_at IS NULL FROM users u WHERE u.id = x.user_id), false)
      """
    ) { row in
      for (i, job) in numbered {
        guard let digest = row.digests[i].digest, row.digests[i].stored != digest else { continue }
        differing[job, default: []].append(
          DifferingContact(
            ContactDigest(contactID: row.id, userID: row.userID, digest: digest),
            hadDigest: row.digests[i].stored != nil))
      }
    }
    return PassedRange(contacts: Int(contacts), differing: differing)
  }

  /// Stores contacts' digests for `job`: those an examination read (`ContactValueRow.digestTerm`,
  /// `EnrichmentContactRow.digest`), and those the pass computed for contacts that had none
  /// while the job's first period runs (`PeriodicContactPass`).
  public func putContactDigests(job: JobName, _ digests: [ContactDigest]) throws {
    try Self.contactDigestUpsert(of: job).execute(
      digests.map { [.integer($0.contactID), .integer($0.userID), .integer($0.digest)] }, on: sql)
  }

  /// The column of `contact_states` that keeps `job`'s digest. Only the jobs that pass
  /// (`PeriodicContactPass`) have one.
  static func digestColumn(of job: JobName) -> String {
    switch job {
    case .circlePatterns: "circles_digest"
    case .enrichmentFetch: "enrichment_digest"
    default: preconditionFailure("\(job.rawValue) keeps no contact digests")
    }
  }

  private static func contactDigestUpsert(of job: JobName) -> MultiRowStatement {
    job == .circlePatterns ? circlesDigestUpsert : enrichmentDigestUpsert
  }

  private static let circlesDigestUpsert = digestUpsert(column: digestColumn(of: .circlePatterns))
  private static let enrichmentDigestUpsert = digestUpsert(column: digestColumn(of: .enrichmentFetch))

  private static func digestUpsert(column: String) -> MultiRowStatement {
    MultiRowStatement(
      head: "INSERT INTO contact_states (contact_id, user_id, \(column)) VALUES", columns: 3,
      tail:
        "ON CONFLICT (contact_id) DO UPDATE SET user_id = excluded.user_id, \(column) = excluded.\(column)")
  }

  /// Drops the stored digests, for each of `jobs`, of contacts in `ids` that are deleted (the
  /// pass reads live contacts only) or no longer exist; returns per job the owners of those
  /// deleted outright, whose examination has not seen it (a contact goes softly, with
  /// `deleted_at`, by the contract). A row left without a digest goes whole: the rest of a
  /// removed contact's state is read by no job. On most nights there are none: they are looked
  /// for with a read (on PostgreSQL an index-only range scan of the states), and changed by key
  /// when found.
  public func forgetDigestsOfRemovedContacts(jobs: [JobName], ids: Range<Int64>) throws
    -> [JobName: Set<UserID>]
  {
    let (low, high) = (ids.lowerBound, ids.upperBound)
    let digests = jobs.map { Self.digestColumn(of: $0) }
    var removed: [ContactID] = []
    var owners: [JobName: Set<UserID>] = [:]
    let stored = digests.enumerated().map { i, column in
      "d.\(column) AS \(RepeatedColumns<StoredDigestsRow.Group>.name(.digest, item: i))"
    }
    try sql.forEachInBatch(
      StoredDigestsRow.self, groups: jobs.count,
      """
      SELECT d.contact_id, d.user_id, c.id IS NULL AS is_gone, \(literal: stored.joined(separator: ", "))
      FROM contact_states d
        LEFT JOIN contacts c ON c.id = d.contact_id AND c.id >= \(low) AND c.id < \(high)
      WHERE d.contact_id >= \(low) AND d.contact_id < \(high) AND (c.id IS NULL OR c.deleted_at IS NOT NULL)
      """
    ) { row in
      removed.append(row.contactID)
      guard row.isGone else { return }
      for (i, job) in jobs.enumerated() where row.hasDigest[i] {
        owners[job, default: []].insert(row.userID)
      }
    }
    guard !removed.isEmpty else { return owners }
    let inRange: SQLFragment = """
      contact_id >= \(low) AND contact_id < \(high)
        AND \(sql.dialect.isIn("contact_id", subquery: sql.dialect.integerSet(removed)))
      """
    try sql.execute(
      "UPDATE contact_states SET \(literal: digests.map { "\($0) = NULL" }.joined(separator: ", ")) WHERE \(inRange)"
    )
    try sql.execute(
      "DELETE FROM contact_states WHERE \(inRange) AND circles_digest IS NULL AND enrichment_digest IS NULL")
    return owners
  }

  /// Leaves `owners` for the job's batches to examine (`ownersFoundByPass`).
  public func queueOwnersFoundByPass(job: JobName, _ owners: Set<UserID>) throws {
    try Self.passOwnerInsert.execute(owners.sorted().map { [SQLValue(job), .integer($0)] }, on: sql)
  }

  private static let passOwnerInsert = MultiRowStatement(
    head: "INSERT INTO periodic_pass_owners (job, user_id) VALUES", columns: 2,
    tail: "ON CONFLICT (job, user_id) DO NOTHING")

  /// Which of `userIDs` a pass of `job` found with a contact that differs from its digest.
  public func ownersFoundByPass(job: JobName, among userIDs: [UserID]) throws -> Set<UserID> {
    guard !userIDs.isEmpty else { return [] }
    var found = Set<UserID>()
    let owners = OwnerSet(userIDs)
    try sql.forEachInBatchReplanned(
      OwnerRow.self,
      """
      SELECT user_id FROM periodic_pass_owners
      WHERE job = \(SQLValue(job)) AND \(owners.condition(on: "user_id"))
      """
    ) { row in
      if owners.includes(row.userID) { found.insert(row.userID) }
    }
    return found
  }

  /// Once their examination is written: these owners no longer wait for one.
  public func forgetOwnersFoundByPass(job: JobName, _ userIDs: Set<UserID>) throws {
    guard !userIDs.isEmpty else { return }
    try sql.executeReplanned(
      "DELETE FROM periodic_pass_owners WHERE job = \(SQLValue(job)) AND user_id IN (\(SQLDialect.list(userIDs.sorted())))"
    )
  }
}

/// The `SET` list of an upsert into `contact_states` that writes a group of a job's columns
/// only where the row's `marker` (never null when the group is written) is given: otherwise the
/// stored values stay.
package func keptUnlessWritten(_ columns: [String], marker: String) -> String {
  columns.map {
    "\($0) = CASE WHEN excluded.\(marker) IS NULL THEN contact_states.\($0) ELSE excluded.\($0) END"
  }.joined(separator: ", ")
}

extension SQLDialect {
  /// Ends a subquery in FROM whose columns the outer query uses more than once: PostgreSQL would
  /// pull it up and compute each use again; `OFFSET 0` keeps it a subquery. (SQLite needs none,
  /// and takes no `OFFSET` without a `LIMIT`.)
  var evaluatedOnce: String { isPostgres ? " OFFSET 0" : "" }

  /// A 32-bit hash of a text expression, null for null: PostgreSQL's `hashtext`, and on SQLite
  /// `rin_hash32` (FNV-1a, registered by `SQLiteBackend`). A digest is only ever compared with
  /// one the same database computed, so the two need not agree.
  func hash32(_ text: String) -> String {
    isPostgres ? "hashtext(\(text))" : "rin_hash32(\(text))"
  }

  /// A contact's own term of `job`'s digest: what the job reads of the row that the services
  /// may change without a stamp. circle-patterns: the family name; enrichment-fetch: the fields
  /// the user edited. Never null.
  package func contactTerm(of job: JobName, _ alias: String) -> String {
    let column = job == .enrichmentFetch ? "edited_fields" : "family_name"
    return hash32("coalesce(\(alias).\(column), '')")
  }

  /// A `contact_phones` row's term (as `alias`); null for a null number, which no job reads.
  package func phoneTerm(_ alias: String) -> String { hash32("'p' || \(alias).raw") }

  /// A `contact_emails` row's term (as `alias`); null for a null address.
  package func emailTerm(_ alias: String) -> String { hash32("'e' || \(alias).address") }
}

private struct PeriodicPassRow: DecodableRow {
  enum Columns: Int, RowColumns { case scope, passedAt, startedAt }
  static let table = "periodic_passes"
  let scope: String
  let passedAt: UTCInstant
  let startedAt: UTCInstant

  init(_ row: RowDecoder<Columns>) throws {
    scope = try row.text(.scope)
    passedAt = try row.instant(.passedAt)
    startedAt = try row.instant(.startedAt)
  }
}

/// A contact of a pass's range with, per job, the digest its values give now and the one stored
/// for it (NULL before the job's first examination of it).
private struct ContactDigestsRow: DecodableRepeatingRow {
  enum Columns: Int, RowColumns { case id, userID }
  enum Group: Int, RowColumns { case digest, stored }
  static let table = "contacts"
  let id: ContactID
  let userID: UserID
  let digests: [(digest: Int64?, stored: Int64?)]

  init(_ row: RowDecoder<Columns>, groups: RepeatedColumns<Group>) throws {
    id = row.key(.id)
    userID = row.key(.userID)
    // A digest computed from a malformed services' value is none: the contact is left for the
    // job's examination, which counts and skips it.
    digests = try groups.indices.map {
      (groups[$0].integerIfValid(.digest), try groups[$0].integerIfPresent(.stored))
    }
  }
}

/// A stored digests row of a contact that is deleted or gone: per job, whether it has a digest.
private struct StoredDigestsRow: DecodableRepeatingRow {
  enum Columns: Int, RowColumns { case contactID, userID, isGone }
  enum Group: Int, RowColumns { case digest }
  static let table = "contact_states"
  let contactID: ContactID
  let userID: UserID
  /// The contact is deleted outright, not only marked deleted.
  let isGone: Bool
  let hasDigest: [Bool]

  init(_ row: RowDecoder<Columns>, groups: RepeatedColumns<Group>) throws {
    contactID = row.key(.contactID)
    userID = try row.integer(.userID)
    isGone = try row.integer(.isGone) == 1
    hasDigest = try groups.indices.map { try groups[$0].integerIfPresent(.digest) != nil }
  }
}
