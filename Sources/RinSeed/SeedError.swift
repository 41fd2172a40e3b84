/// Why seeding refused to run.
public enum SeedError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Seeding appends ids from 1: on top of existing rows it would collide or mix datasets.
  case databaseNotEmpty(location: String, users: Int)
  case invalidOptions(String)

  public var description: String {
    switch self {
    case .databaseNotEmpty(let location, let users):
      "\(location): the users table already has \(users) rows; seed only into an empty database (use a new file)."
    case .invalidOptions(let detail):
      "invalid seed options: \(detail)"
    }
  }
}
