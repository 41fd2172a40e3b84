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
  public func write<T>(waitingAtMost seconds: Double, _ body: (StorageTransaction) throws -> T) throws -> T {
    let configured = try busyTimeoutMilliseconds()
    try setBusyTimeout(milliseconds: Int(seconds * 1000))
    defer { try? setBusyTimeout(milliseconds: configured) }
    return try write(body)
  }

  private func busyTimeoutMilliseconds() throws -> Int {
    try mapErrors { try queue.inDatabase { try Int.fetchOne($0, sql: "PRAGMA busy_timeout") ?? 0 } }
  }

  private func setBusyTimeout(milliseconds: Int) throws {
    // An integer of ours, not input: PRAGMA takes no bound parameters.
    try mapErrors {
      try queue.inDatabase { try $0.execute(sql: "PRAGMA busy_timeout = \(max(0, milliseconds))") }
    }
  }
}
