/// The settings every PostgreSQL connection of ours runs with, set once when it opens.
enum PostgresSessionSettings {
  static func statements(busyTimeoutSeconds: Double) -> String {
    [
      // A busy row or lock waits as long as SQLite's busy timeout would, then fails as busy.
      "SET lock_timeout = '\(Int(busyTimeoutSeconds * 1000))ms'",
      // A read that streams (`forEachRow`) goes through `DECLARE … CURSOR`: plan for reading all
      // of it, not (the default 0.1) for the first tenth fast.
      "SET cursor_tuple_fraction = 1",
      // Our queries run in tens of milliseconds, but their estimated cost (a `user_id IN (…)` of
      // hundreds of values, `EXISTS` per row, `UNION ALL` over id ranges) is past the JIT
      // thresholds: LLVM spent about 4 s compiling daily-score's contact scan, in every batch,
      // for a query that then ran in 0.2 s (BENCHMARKS.md, PostgreSQL and shards).
      "SET jit = off",
    ].joined(separator: "; ")
  }
}
