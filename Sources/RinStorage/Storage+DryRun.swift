extension Storage {
  /// Runs `body` in one transaction that is always rolled back, whether `body` returns or
  /// throws: `body` gets a handle whose writes become savepoints in it, so each sees the ones
  /// before it and nothing is committed. On a handle that is already a dry run's, `body` joins
  /// that dry run.
  public func dryRun<T>(_ body: (Storage) async throws -> T) async throws -> T {
    if isDryRun { return try await body(self) }
    try backend.beginDryRun()
    let session = Storage(backend: backend, isDryRun: true)
    let result: T
    do {
      result = try await body(session)
    } catch {
      try? backend.rollBackDryRun()
      throw error
    }
    try backend.rollBackDryRun()
    return result
  }
}
