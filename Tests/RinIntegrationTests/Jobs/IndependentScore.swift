import Foundation
import GRDB
import RinTestSupport

/// docs/CONTRACT.md §3.1 computed again, user by user, straight from the tables — deliberately naive
/// and sharing no code with the job, so that the end-to-end test checks the job against the
/// design rather than against itself.
enum IndependentScore {
  struct Expected: Equatable {
    var score: Int
    var tier: String
    var quality: Double?
    var position: Double?
    var stability: Double?
    var trust: Double
  }

  static func blank(_ s: String?) -> Bool {
    (s ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  static func compute(_ db: Database, asOf: String) throws -> [Int64: Expected] {
    let parts = asOf.split(separator: "-").map { Int($0)! }
    var components = DateComponents()
    components.year = parts[0]
    components.month = parts[1]
    components.day = parts[2] + 1
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let end = Int64(calendar.date(from: components)!.timeIntervalSince1970)
    let start = end - 30 * 86_400
    func live(_ alias: String) -> String {
      "\(alias).created_at < \(end) AND (\(alias).deleted_at IS NULL OR \(alias).deleted_at >= \(end))"
    }
    // The contacts in an organizing circle, read once: circle_members has no index by contact
    // (a migration drops it), so asking per contact scanned the table for each.
    let organizedContacts = Set(
      try Int64.fetchAll(
        db,
        sql:
          "SELECT DISTINCT m.contact_id FROM circle_members m JOIN circles k ON k.id = m.circle_id WHERE k.kind IN ('prepopulated','custom') AND (m.added_at IS NULL OR m.added_at < \(end)) AND \(live("k"))"
      ))
    var result: [Int64: Expected] = [:]
    for user in try Row.fetchAll(
      db, sql: "SELECT id, created_at, phone_verified FROM users u WHERE \(live("u"))")
    {
      let id: Int64 = user["id"]
      let userCreated: Int64 = user["created_at"]
      let contacts = try Row.fetchAll(
        db,
        sql:
          "SELECT id, given_name, family_name, display_name, rin_user_id FROM contacts c WHERE user_id = ? AND \(live("c"))",
        arguments: [id])
      let n = Double(contacts.count)
      var complete = 0.0, enriched = 0.0, rin = 0.0, mutual = 0.0, organized = 0.0
      for c in contacts {
        let cid: Int64 = c["id"]
        let named = !blank(c["given_name"]) || !blank(c["family_name"]) || !blank(c["display_name"])
        let phones = try String?.fetchAll(
          db, sql: "SELECT raw FROM contact_phones WHERE contact_id = ?", arguments: [cid])
        let emails = try String?.fetchAll(
          db, sql: "SELECT address FROM contact_emails WHERE contact_id = ?", arguments: [cid])
        if named && (phones + emails).contains(where: { !blank($0) }) { complete += 1 }
        if try Int.fetchOne(
          db, sql: "SELECT count(*) FROM contact_enrichments WHERE contact_id = ? AND fetched_at < ?",
          arguments: [cid, end])! > 0
        {
          enriched += 1
        }
        if let other = c["rin_user_id"] as Int64?,
          try Int.fetchOne(
            db, sql: "SELECT count(*) FROM users u WHERE id = ? AND \(live("u"))", arguments: [other])! > 0
        {
          rin += 1
          if try Int.fetchOne(
            db, sql: "SELECT count(*) FROM contacts c WHERE user_id = ? AND rin_user_id = ? AND \(live("c"))",
            arguments: [other, id])! > 0
          {
            mutual += 1
          }
        }
        if organizedContacts.contains(cid) { organized += 1 }
      }
      let customCircles = Double(
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM circles k WHERE k.user_id = ? AND k.kind = 'custom' AND \(live("k"))
              AND (SELECT count(*) FROM circle_members m JOIN contacts c ON c.id = m.contact_id
                   WHERE m.circle_id = k.id AND (m.added_at IS NULL OR m.added_at < \(end)) AND \(live("c"))) > 0
            """, arguments: [id])!)
      var pending = 0.0
      for confidence in try DatabaseValue.fetchAll(
        db,
        sql:
          "SELECT confidence FROM merge_suggestions WHERE user_id = ? AND status = 'pending' AND created_at < ?",
        arguments: [id, end])
      {
        if case .double(let v) = confidence.storage, v >= 0.70, v < 0.95 { pending += 1 }
      }
      let churn = Double(
        try Int.fetchOne(
          db,
          sql:
            "SELECT count(*) FROM contacts WHERE user_id = ? AND created_at > ? AND created_at <= ? AND created_at >= ?",
          arguments: [id, start, end, userCreated + 86_400])!
          + Int.fetchOne(
            db, sql: "SELECT count(*) FROM contacts WHERE user_id = ? AND deleted_at > ? AND deleted_at <= ?",
            arguments: [id, start, end])!)
      let tenure = (end - userCreated) / 86_400
      let security = Double(
        try Int.fetchOne(
          db,
          sql: "SELECT count(*) FROM security_items WHERE user_id = ? AND status = 'open' AND created_at < ?",
          arguments: [id, end])!)
      let verified = (user["phone_verified"] as Int64?) == 1 ? 1.0 : 0.0

      let quality =
        n == 0 ? nil : 100 * (0.6 * complete / n + 0.2 * enriched / n + 0.2 * max(0, 1 - 5 * pending / n))
      let position =
        n == 0
        ? nil
        : 100 * (0.5 * min(1, log(1 + rin) / log(51)) + 0.3 * organized / n + 0.2 * min(1, customCircles / 5))
      let stability = (tenure < 7 || n == 0) ? nil : 100 * max(0, 1 - churn / n)
      let trust = 100 * (0.4 * verified + 0.3 * max(0, 1 - security / 3) + 0.3 * (rin > 0 ? mutual / rin : 0))
      let weighted = [(quality, 0.35), (position, 0.25), (stability, 0.20), (trust as Double?, 0.20)]
        .compactMap { v, w in v.map { ($0 * w, w) } }
      let mean = weighted.map(\.0).reduce(0, +) / weighted.map(\.1).reduce(0, +)
      let score = Int(floor(mean + 0.5 + 1e-9))
      let tier =
        score < 40
        ? "Building" : score < 60 ? "Fair" : score < 75 ? "Good" : score < 90 ? "Strong" : "Excellent"
      result[id] = Expected(
        score: score, tier: tier, quality: quality, position: position, stability: stability, trust: trust)
    }
    return result
  }
}
