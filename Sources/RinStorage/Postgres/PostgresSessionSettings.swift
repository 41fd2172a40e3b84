/// The settings every PostgreSQL connection of ours runs with, set once when it opens.
enum PostgresSessionSettings {
  static func statements(busyTimeoutSeconds: Double) -> String {
    [
      // A busy row or lock waits as long as SQLite's busy timeout would, then fails as busy.
      "SET lock_timeout = '\(Int(busyTimeoutSeconds * 1000))ms'",
      // Every read streams its whole result through `DECLARE … CURSOR`: plan for reading all of
      // it, not (the default 0.1) for the first tenth fast.
      "SET cursor_tuple_fraction = 1",
    ].joined(separator: "; ")
  }
}
