import Foundation
import GRDB
import RinTestSupport

/// An `upcoming_events` row as the tests compare them, read straight from the file.
struct UpcomingEventRow: Hashable, Comparable, CustomStringConvertible {
  var user: Int64
  var kind: String
  var ref: Int64
  var occursOn: String
  var contact: Int64
  var daysUntil: Int

  static func < (a: Self, b: Self) -> Bool {
    (a.user, a.occursOn, a.kind, a.ref) < (b.user, b.occursOn, b.kind, b.ref)
  }

  var description: String {
    "user \(user) \(kind) \(ref) on \(occursOn) (contact \(contact), \(daysUntil) days)"
  }

  static func all(_ db: TestDatabase) throws -> [UpcomingEventRow] {
    try db.read { d in
      try Row.fetchAll(
        d, sql: "SELECT user_id, kind, ref_id, occurs_on, contact_id, days_until FROM upcoming_events"
      ).map { r in
        UpcomingEventRow(user: r[0], kind: r[1], ref: r[2], occursOn: r[3], contact: r[4], daysUntil: r[5])
      }.sorted()
    }
  }
}
