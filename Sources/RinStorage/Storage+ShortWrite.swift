extension Storage {
  /// How long a write waits for another connection's write lock before it fails `busy`
  /// (`storage.busy_timeout`).
  public var busyTimeout: Duration {
    get throws { .milliseconds(try backend.busyTimeoutMilliseconds()) }
  }

  /// A write that waits at most `limit` for another connection's write lock, instead of the
  /// configured busy timeout, and then fails `busy`. For a caller that has something better
  /// to do than wait, such as reading who holds a lease (a read never waits for the lock).
  /// On PostgreSQL a write takes no file-wide lock (leases use row and advisory locks): it
  /// runs as any write.
  public func write<T>(waitingAtMost limit: Duration, _ body: (StorageTransaction) throws -> T) throws -> T {
    try backend.write(waitingAtMost: limit, inDryRun: isDryRun, body)
  }
}
