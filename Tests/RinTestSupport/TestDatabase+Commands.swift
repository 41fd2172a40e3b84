extension TestDatabase {
  /// Runs one of the package's executables on this database: `arguments`, then `--db` this
  /// database and, given one, `--config`.
  package func run(
    _ executable: String, _ arguments: [String], config: String? = nil, environment: [String: String] = [:]
  ) async throws -> Executable.Result {
    try await Executable.run(
      executable, arguments + (config.map { ["--config", $0] } ?? []) + ["--db", path],
      environment: environment)
  }
}
