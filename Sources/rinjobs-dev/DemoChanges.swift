import Foundation

/// A day of the online services' writes between two demo nights: bench/day_of_changes.sql (the
/// bench's and the tests' draw: deleted accounts, edited contacts, new users, birthdays, …)
/// through Debian's `sqlite3` shell (`DemoShell`), which it is written for.
struct DemoChanges {
  let script: String
  let database: String
  /// Which share of the users changes: the day's users have `id % modulus` equal to the draw.
  let modulus: Int

  /// The script beside the config (the repository's bench/), or nil when it is not there.
  init?(configPath: String, database: String, users: Int) {
    let path = URL(fileURLWithPath: configPath).deletingLastPathComponent()
      .appendingPathComponent("bench/day_of_changes.sql").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    script = text
    self.database = database
    // Every kind of change needs users 1 … 20 × modulus (docs in the script): a larger share of
    // a small database than the bench's 1 %.
    modulus = max(2, min(97, users / 21))
  }

  /// Applies draw `day`, stamped `at` (Unix seconds); the shell's error when it fails.
  func apply(day: Int, at: Int64) -> String? {
    do {
      _ = try DemoShell.run(
        script.replacingOccurrences(of: "{{DAY}}", with: String(day))
          .replacingOccurrences(of: "{{AT}}", with: String(at))
          .replacingOccurrences(of: "{{MOD}}", with: String(modulus)),
        on: database)
      return nil
    } catch {
      return error.description
    }
  }
}
