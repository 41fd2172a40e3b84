import Foundation
import GRDB

/// Every row of some tables, as text, in a stable order (all columns, ascending).
package struct TableSnapshot: Equatable, Sendable {
  package var rows: [String: [String]] = [:]

  /// Tables whose `id` a job's insert draws from a sequence. PostgreSQL never hands a
  /// sequence's numbers back, so a killed run's rolled-back inserts shift the ids of the rerun's
  /// rows (SQLite reuses them); the rows are compared on everything else, and no job's output
  /// refers to these ids.
  package static let surrogateKeyed: Set<String> = ["notification_outbox", "circle_suggestions"]

  package init(db: Database, tables: [String]) throws {
    for table in tables {
      let columns = try db.columns(in: table).map(\.name)
        .filter { !(Self.surrogateKeyed.contains(table) && $0 == "id") }
      let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
      let order = (1...columns.count).map(String.init).joined(separator: ", ")
      var texts: [String] = []
      try db.forEachRowOfValues("SELECT \(list) FROM \(table) ORDER BY \(order)") { values in
        texts.append(values.map(Self.text).joined(separator: "|"))
      }
      rows[table] = texts
    }
  }

  /// Unambiguous, and safe for any value (GRDB's `description` traps on some hostile text).
  package static func text(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null: "NULL"
    case .int64(let number): "i\(number)"
    case .double(let number): "d\(number)"
    case .string(let string): runFree(string).map { "s\($0.utf8.count):\($0)" } ?? ""
    case .blob(let data): "b\(data.count):\(data.base64EncodedString())"
    }
  }

  /// enrichment-fetch's notification key carries the run id by design (one per user per run,
  /// so a resumed run never repeats one): a resumed run's rows differ from an uninterrupted
  /// run's by that id alone. A user notified twice still shows as an extra row.
  package static func runFree(_ text: String) -> String? {
    guard text.hasPrefix("contact_enrichment:"), let colon = text.lastIndex(of: ":") else { return text }
    return text[..<colon] + ":<run>"
  }

  /// One line per table that differs, for a failure message.
  package func differences(from expected: TableSnapshot) -> [String] {
    expected.rows.keys.sorted().compactMap { table in
      let mine = rows[table] ?? []
      let theirs = expected.rows[table] ?? []
      guard mine != theirs else { return nil }
      let extra = Set(mine).subtracting(theirs).count
      let missing = Set(theirs).subtracting(mine).count
      return
        "\(table): \(mine.count) rows, expected \(theirs.count) (\(extra) unexpected, \(missing) missing)"
    }
  }
}
