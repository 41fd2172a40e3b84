import Foundation
import RinDomain

/// Which child-table rows a per-batch query reads: those of a list of contact ids (one index
/// probe each, for a few contacts among many), those in the contacts' id ranges (one `UNION ALL`
/// branch per range, so each is an ordered index scan and no row needs de-duplicating), or,
/// when the contacts are too scattered for ranges, those of the batch's users' contacts.
package struct ContactScope {
  package let ranges: ContactIDRanges?
  package let userIDs: [SQLValue]
  /// When set, the scope is these contacts, whatever `ranges` and `userIDs` say.
  package var contactIDs: [SQLValue]? = nil

  package init(ranges: ContactIDRanges?, userIDs: [SQLValue], contactIDs: [SQLValue]? = nil) {
    self.ranges = ranges
    self.userIDs = userIDs
    self.contactIDs = contactIDs
  }

  /// `query` with the scope's condition in place of `{contacts:column}` and `end` bound for
  /// each `:end`. The template's text was split once (`ScopedQuery`); a batch joins the pieces
  /// and counts the values itself, the one place here that builds a fragment from a text and
  /// its arguments apart.
  package func query(_ query: ScopedQuery, end: UTCInstant, dialect: SQLDialect) -> SQLFragment {
    let before = Array(repeating: SQLValue.instant(end), count: query.endsBefore)
    let after = Array(repeating: SQLValue.instant(end), count: query.endsAfter)
    func branch(_ condition: SQLFragment) -> SQLFragment {
      SQLFragment(
        text: query.before + condition.text + query.after, arguments: before + condition.arguments + after)
    }
    if let contactIDs {
      return branch("\(literal: query.column) IN (\(SQLDialect.list(contactIDs)))")
    }
    guard let ranges else {
      let list = SQLDialect.list(userIDs)
      let source = query.source
      // From the users' contacts to their child rows, a probe per contact (`join(rowsOf:)`):
      // `IN (SELECT id FROM contacts …)` made PostgreSQL hash a whole child table per batch
      // once the batch was a fraction of a percent of it (a first daily-score at S: 31 s of
      // server time, 13 times SQLite's).
      let from: SQLFragment =
        source.table == "contacts"
        ? "FROM contacts \(literal: source.alias) WHERE \(literal: source.alias).user_id IN (\(list))"
        : """
        FROM contacts scope_owner \(literal: dialect.join(
          rowsOf: source.table, as: source.alias, whose: query.column.dropPrefix(source.alias + "."),
          equals: "scope_owner.id")) WHERE scope_owner.user_id IN (\(list))
        """
      return SQLFragment(
        text: source.select + from.text + query.after, arguments: before + from.arguments + after)
    }
    return ranges.padded.map { low, high in
      branch("\(literal: query.column) BETWEEN \(low) AND \(high)")
    }.joined(separator: "\nUNION ALL\n")
  }
}

/// A query over one batch's contacts: `{contacts:column}` marks where the scope's condition on
/// `column` (a contact id) goes, `:end` the instant. Split once, when the static query is first
/// used, so that a batch only concatenates (expanding a long text per batch showed in profiles).
package struct ScopedQuery: Sendable {
  let before: String
  let column: String
  let after: String
  let endsBefore: Int
  let endsAfter: Int
  /// The template's select list, table and alias (`SELECT … FROM table alias WHERE
  /// {contacts:alias.key}…`), so that a batch read by owner starts from the owners' contacts.
  let source: (select: String, table: String, alias: String)

  package init(_ template: String) {
    let parts = template.split(separator: "{contacts:", maxSplits: 1, omittingEmptySubsequences: false)
    let rest =
      parts.count == 2 ? parts[1].split(separator: "}", maxSplits: 1, omittingEmptySubsequences: false) : []
    precondition(rest.count == 2, "a scoped query marks its contact id column once: {contacts:column}")
    func expand(_ text: Substring) -> (String, Int) {
      let pieces = text.split(separator: ":end", omittingEmptySubsequences: false)
      return (pieces.joined(separator: "?"), pieces.count - 1)
    }
    (before, endsBefore) = expand(parts[0])
    column = String(rest[0])
    (after, endsAfter) = expand(rest[1])
    guard let source = Self.source(of: before, endsBefore: endsBefore) else {
      preconditionFailure(
        "a scoped query reads one table: SELECT … FROM table alias WHERE {contacts:alias.key}")
    }
    self.source = source
  }

  /// `SELECT … ` and the table and alias of a `before` that ends `FROM table alias WHERE `
  /// (any white space between the words).
  private static func source(of before: String, endsBefore: Int) -> (
    select: String, table: String, alias: String
  )? {
    let words = before.split(whereSeparator: \.isWhitespace)
    guard endsBefore == 0, words.count >= 5, words.suffix(4).first == "FROM", words.last == "WHERE",
      let from = before.range(of: "FROM", options: .backwards)
    else { return nil }
    return (
      String(before[..<from.lowerBound]), String(words[words.count - 3]), String(words[words.count - 2])
    )
  }
}

extension String {
  fileprivate func dropPrefix(_ prefix: String) -> String {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
  }
}
