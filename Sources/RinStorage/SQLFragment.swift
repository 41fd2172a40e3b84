import RinDomain

/// A statement, or a piece of one, with its arguments: each value is bound where it is written.
///
///     let turn: SQLFragment = "UPDATE provider_allowances SET day = \(day) WHERE provider = \(name)"
///
/// Interpolating a value (`SQLValue`, an integer, a date, an instant) writes a `?` and binds the
/// value; a text is bound as `\(.text(name))`, so that a piece of SQL text held in a `String`
/// can never be bound by mistake (it does not compile: write `\(literal: text)`); interpolating another fragment splices its text and its arguments in place, so a
/// condition used twice binds its values twice, in order; `\(literal:)` writes trusted SQL text
/// (a table or column name, a keyword of the dialect), never a value. Models: GRDB's `SQL`
/// literal and postgres-nio's `PostgresQuery`. No positional `?` list has to match a separate
/// array of values by hand.
///
/// The text keeps SQLite's `?` placeholders: PostgreSQL's connection numbers them as it prepares
/// a statement. A given statement's text is the same on every call, so both backends' caches of
/// prepared statements find it.
public struct SQLFragment: Sendable, Hashable {
  /// The SQL, with a `?` for each argument.
  public private(set) var text: String
  /// The values the `?`s bind, in order.
  public private(set) var arguments: [SQLValue]

  /// A fragment whose placeholders were written by the caller (a multi-row `VALUES` list): the
  /// one place a text and an argument list meet, so keep it to builders that count both.
  init(text: String, arguments: [SQLValue]) {
    self.text = text
    self.arguments = arguments
  }

  /// Appends `other`'s text and arguments.
  mutating func append(_ other: SQLFragment) {
    text += other.text
    arguments += other.arguments
  }
}

extension SQLFragment: ExpressibleByStringInterpolation {
  public init(stringLiteral value: String) {
    self.init(text: value, arguments: [])
  }

  public init(stringInterpolation: StringInterpolation) {
    self.init(text: stringInterpolation.text, arguments: stringInterpolation.arguments)
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    var text = ""
    var arguments: [SQLValue] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// Binds `value`.
    public mutating func appendInterpolation(_ value: SQLValue) {
      text += "?"
      arguments.append(value)
    }

    public mutating func appendInterpolation(_ value: Int64?) { appendInterpolation(SQLValue(value)) }
    public mutating func appendInterpolation(_ value: Int?) { appendInterpolation(SQLValue(value)) }
    public mutating func appendInterpolation(_ value: Double?) { appendInterpolation(SQLValue(value)) }
    public mutating func appendInterpolation(_ value: Bool?) { appendInterpolation(SQLValue(value)) }
    /// A date as the tables keep it (`YYYY-MM-DD`).
    public mutating func appendInterpolation(_ value: CalendarDate) { appendInterpolation(SQLValue(value)) }
    /// An instant as the tables keep it (seconds since 1970).
    public mutating func appendInterpolation(_ value: UTCInstant?) { appendInterpolation(SQLValue(value)) }

    /// Splices `fragment`: its text here, its arguments in its place among the others.
    public mutating func appendInterpolation(_ fragment: SQLFragment) {
      text += fragment.text
      arguments += fragment.arguments
    }

    /// Trusted SQL text: a table or column name, a keyword. Never a value: values are bound.
    public mutating func appendInterpolation(literal: String) { text += literal }
  }
}

extension Sequence<SQLFragment> {
  /// The fragments with `separator` between them (`, `, ` OR `).
  package func joined(separator: String) -> SQLFragment {
    var joined = SQLFragment(text: "", arguments: [])
    for (index, fragment) in enumerated() {
      if index > 0 { joined.append(SQLFragment(text: separator, arguments: [])) }
      joined.append(fragment)
    }
    return joined
  }
}

extension DefaultStringInterpolation {
  /// A fragment inside a plain `String` would be its text without its values. Deprecated, so that
  /// doing it is a warning, which the test script (and so CI) fails on: build the statement as an
  /// `SQLFragment` instead.
  @available(
    *, deprecated, message: "a fragment inside a String loses its values: make the statement an SQLFragment"
  )
  public mutating func appendInterpolation(_ fragment: SQLFragment) {
    appendLiteral(fragment.text)
  }
}
