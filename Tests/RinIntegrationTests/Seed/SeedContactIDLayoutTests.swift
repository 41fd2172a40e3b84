import Foundation
import GRDB
import RinSeed
import RinTestSupport
import Testing

/// docs/CONTRACT.md §6: seeded contact ids lie as production's do, in creation order across users,
/// and the clustered layout holds the same rows under other ids.
@Suite("Seeder: contact id layout", .onItsOwnThread)
struct SeedContactIDLayoutTests {
  static let users = 80

  @Test("creation order: ids follow created_at across users, and most users' contacts are spread")
  func creationOrderFollowsTimeAcrossUsers() throws {
    let seeded = try SeedFixture(users: Self.users, seed: 11)
    let outOfOrder = try seeded.int(
      "SELECT count(*) FROM contacts a JOIN contacts b ON b.id = a.id + 1 WHERE b.created_at < a.created_at")
    #expect(outOfOrder == 0)
    // A user's contacts form one run of ids or several; runs = contacts whose id - 1 is not the
    // same user's.
    let spread = try seeded.int(
      """
      SELECT count(*) FROM (
        SELECT c.user_id FROM contacts c LEFT JOIN contacts p ON p.id = c.id - 1 AND p.user_id = c.user_id
        WHERE p.id IS NULL GROUP BY c.user_id HAVING count(*) > 1)
      """)
    let owners = try seeded.int("SELECT count(DISTINCT user_id) FROM contacts")
    #expect(spread * 2 > owners, "\(spread) of \(owners) users have their contacts in more than one run")
    // Child rows lie in their contact's order, as rows written with their contact do.
    for table in ["contact_phones", "contact_emails", "circle_members"] {
      let backwards = try seeded.int(
        "SELECT count(*) FROM \(table) a JOIN \(table) b ON b.rowid = a.rowid + 1 WHERE b.contact_id < a.contact_id"
      )
      #expect(backwards == 0, "\(table)")
    }
  }

  @Test("clustered: one run of ids per user, in user order")
  func clusteredIsOneRunPerUser() throws {
    let seeded = try SeedFixture(users: Self.users, seed: 11, contactIDs: .clustered)
    let runs = try seeded.int(
      """
      SELECT count(*) FROM contacts c LEFT JOIN contacts p ON p.id = c.id - 1 AND p.user_id = c.user_id
      WHERE p.id IS NULL
      """)
    #expect(runs == (try seeded.int("SELECT count(DISTINCT user_id) FROM contacts")))
  }

  /// The clustered file renumbered by hand (rank by created_at, then id) must give the
  /// creation-order file's rows, table by table: the layout changes ids, nothing else.
  @Test("both layouts hold the same rows, renumbered")
  func bothLayoutsHoldTheSameRows() throws {
    let timeOrdered = try SeedFixture(users: Self.users, seed: 11)
    let clustered = try SeedFixture(users: Self.users, seed: 11, contactIDs: .clustered)
    let rank = "(SELECT id AS old_id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS new_id FROM contacts)"
    let queries: [(table: String, clustered: String, timeOrdered: String)] = [
      (
        "contacts",
        """
        SELECT r.new_id, c.user_id, c.given_name, c.family_name, c.display_name, c.company, c.title,
          c.birthday, c.source, c.rin_user_id, c.edited_fields, c.created_at, c.updated_at, c.deleted_at
        FROM contacts c JOIN \(rank) r ON r.old_id = c.id
        """,
        """
        SELECT id, user_id, given_name, family_name, display_name, company, title, birthday, source,
          rin_user_id, edited_fields, created_at, updated_at, deleted_at FROM contacts
        """
      ),
      (
        "contact_phones",
        "SELECT r.new_id, t.raw, t.label FROM contact_phones t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT contact_id, raw, label FROM contact_phones"
      ),
      (
        "contact_emails",
        "SELECT r.new_id, t.address, t.label FROM contact_emails t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT contact_id, address, label FROM contact_emails"
      ),
      (
        "circle_members",
        "SELECT t.circle_id, r.new_id, t.added_at FROM circle_members t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT circle_id, contact_id, added_at FROM circle_members"
      ),
      (
        "circle_removals",
        "SELECT t.circle_id, r.new_id, t.removed_at FROM circle_removals t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT circle_id, contact_id, removed_at FROM circle_removals"
      ),
      (
        "merge_suggestions",
        """
        SELECT t.id, t.user_id, a.new_id, b.new_id, t.confidence, t.status, t.skipped_until, t.created_at
        FROM merge_suggestions t JOIN \(rank) a ON a.old_id = t.contact_a JOIN \(rank) b ON b.old_id = t.contact_b
        """,
        "SELECT id, user_id, contact_a, contact_b, confidence, status, skipped_until, created_at FROM merge_suggestions"
      ),
      (
        "sync_conflicts",
        "SELECT t.id, t.user_id, r.new_id, t.status, t.created_at FROM sync_conflicts t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT id, user_id, contact_id, status, created_at FROM sync_conflicts"
      ),
      (
        "reminders",
        "SELECT t.id, t.user_id, r.new_id, t.text, t.due_on, t.completed_at FROM reminders t JOIN \(rank) r ON r.old_id = t.contact_id",
        "SELECT id, user_id, contact_id, text, due_on, completed_at FROM reminders"
      ),
    ]
    for query in queries {
      let expected = try clustered.rows(query.clustered).map { "\($0)" }.sorted()
      let actual = try timeOrdered.rows(query.timeOrdered).map { "\($0)" }.sorted()
      #expect(!expected.isEmpty, "\(query.table) has rows")
      #expect(expected.count == (try clustered.int("SELECT count(*) FROM \(query.table)")), "\(query.table)")
      #expect(actual == expected, "\(query.table): \(actual.count) rows, expected \(expected.count)")
    }
  }
}
