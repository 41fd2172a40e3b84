import Synchronization

/// The columns of one read, in the order its query selects them: an enum whose cases, in the
/// order they are declared, are the columns, each named by its case in snake case (`userID` is
/// `user_id`, `contactIDs` is `contact_ids`). The query writes the list from here
/// (`\(columns: Columns.self)`), the decoder finds a column's place from here, and a statement
/// whose result names other columns fails on its first row, naming them: a column is read by
/// its name, never by a number written beside the query.
///
///     enum Columns: Int, RowColumns { case userID, home, circles, score, profile }
///
/// A column computed by the query is selected `AS` its case's name (`count(*) AS pending`).
///
/// `CodingKey` gives each case its name as the compiler wrote it (`stringValue`, synthesized for an
/// enum with `Int` raw values): `String(describing:)` found it by reflection, whose first look at
/// each type's conformances cost a run tens of milliseconds over its few dozen row types.
@usableFromInline package protocol RowColumns: RawRepresentable, CaseIterable, CodingKey, Sendable
where RawValue == Int {}

extension RowColumns {
  /// The column's name in the result.
  package var name: String { Self.names[position] }

  /// Where the query selects it: its case's place among all the cases.
  @inlinable var position: Int { rawValue }

  /// Every column's name, in order.
  @usableFromInline package static var names: [String] { ColumnName.names(of: Self.self) }

  /// Every column's name quoted, as a statement writes them: a column may be named by a
  /// keyword (`invite_prompt_queue."trigger"`).
  package static var quotedNames: [String] { names.map { "\"\($0)\"" } }
}

/// How a case name becomes a column name.
package enum ColumnName {
  /// Each `RowColumns` type's names, worked out once in a process: every statement a batch
  /// builds lists its columns, and every read checks them on its first row.
  private static let cache = Mutex<[ObjectIdentifier: [String]]>([:])

  static func names<Columns: RowColumns>(of type: Columns.Type) -> [String] {
    if let names = cache.withLock({ $0[ObjectIdentifier(type)] }) { return names }
    let names = Columns.allCases.map { snakeCase($0.stringValue) }
    cache.withLock { $0[ObjectIdentifier(type)] = names }
    return names
  }

  /// `userID` → `user_id`, `contactIDs` → `contact_ids`, `e164` → `e164`, `scoreChangedAt` →
  /// `score_changed_at`: a word starts at a capital that follows a small letter or a digit, and a
  /// run of capitals is one word (with a plural `s` after it).
  package static func snakeCase(_ name: String) -> String {
    var result = ""
    var previous: Character?
    for character in name {
      if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
        result.append("_")
      }
      result.append(contentsOf: character.lowercased())
      previous = character
    }
    return result
  }
}
