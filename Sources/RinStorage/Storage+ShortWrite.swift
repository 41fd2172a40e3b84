import GRDB

extension Storage {
  /// How long a write waits for another connection's write lock before it fails `busy`
  /// (`storage.busy_timeout`).
  public var busyTimeoutSeconds: Double {
    get throws { Double(try busyTimeoutMilliseconds()) / 1000 }
  }

  /// A write that waits at most `seconds` for another connection's write lock, instead of the
  /// configured busy timeout, and then fails `busy`. For a caller that has something better
  /// to do than wait, such as reading who holds a lease (a read never waits for the lock).
  /// On PostgreSQL a write takes no file-wide lock (leases use row and advisory locks): it
  /// runs as any write.
  public func write<T>(waitingAtMost seconds: Double, _ body: (StorageTransaction) throws -> T) throws -> T {
    guard case .sqlite = backend else { return try write(body) }
    let configured = try busyTimeoutMilliseconds()
    try setBusyTimeout(milliseconds: Int(seconds * 1000))
    defer { try? setBusyTimeout(milliseconds: configured) }
    return try write(body)
  }

  private func busyTimeoutMilliseconds() throws -> Int {
    guard case .sqlite(let queue) = backend else {
      // PostgreSQL's busy timeout is the lock_timeout set at open from the same setting;
      // pg_settings gives it in milliseconds whatever unit it was set in.
      let query = "SELECT setting FROM pg_settings WHERE name = 'lock_timeout'"
      return try read { Int(try $0.sql.fetchText(query) ?? "") ?? 0 }
    }
    return try mapErrors { try queue.inDatabase { try Int.fetchOne($0, sql: "PRAGMA busy_timeout") ?? 0 } }
  }

  private func setBusyTimeout(milliseconds: Int) throws {
    guard case .sqlite(let queue) = backend else { return }
    // An integer of ours, not input: PRAGMA takes no bound parameters.
    try mapErrors {
      try queue.inDatabase { try $0.execute(sql: "PRAGMA busy_timeout = \(max(0, milliseconds))") }
    }
  }
}
