/// How values are written as PostgreSQL text.
enum PostgresText {
  /// Shortest text that reads back as the same double; PostgreSQL spells infinities its own way.
  static func double(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    return value.description
  }
}
