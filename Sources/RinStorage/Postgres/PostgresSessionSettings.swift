import RinDomain

/// The settings every PostgreSQL connection of ours runs with, set once when it opens.
enum PostgresSessionSettings {
  static func statements(busyTimeout: Duration, limits: SessionLimits = SessionLimits()) -> String {
    var statements = [
      // A busy row or lock waits this long, then fails (`lock not available`): the job gives
      // way to the holder (a service) rather than the services queueing behind the job.
      "SET lock_timeout = '\(milliseconds(limits.lockTimeout ?? busyTimeout))ms'",
      // A read that streams (`forEachRow`) goes through `DECLARE … CURSOR`: plan for reading all
      // of it, not (the default 0.1) for the first tenth fast.
      "SET cursor_tuple_fraction = 1",
      // Our queries are short, but their estimated cost (a `user_id IN (…)` of hundreds of
      // values, `EXISTS` per row) is past the JIT thresholds: LLVM then compiles the plan in
      // every batch, for longer than the query runs (BENCHMARKS.md, PostgreSQL and shards).
      "SET jit = off",
    ]
    if let timeout = limits.statementTimeout {
      statements.append("SET statement_timeout = '\(milliseconds(timeout))ms'")
    }
    if let timeout = limits.idleInTransactionTimeout {
      statements.append("SET idle_in_transaction_session_timeout = '\(milliseconds(timeout))ms'")
    }
    if let name = limits.applicationName {
      // Our own fixed names only (letters, digits, `-`, `:`): nothing to quote.
      statements.append(
        "SET application_name = '\(name.filter { $0.isLetter || $0.isNumber || "-:_".contains($0) })'")
    }
    return statements.joined(separator: "; ")
  }

  private static func milliseconds(_ span: Duration) -> Int { max(1, Int(span.wholeMilliseconds)) }
}
