import ArgumentParser
import Foundation
import RinCLI
import RinDomain
import RinRuntime
import RinSeed

/// `rinjobs-dev seed`: a deterministic synthetic database (docs/CONTRACT.md §6).
struct SeedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "seed",
    abstract: "Write a deterministic synthetic database: same arguments, same content.")

  @OptionGroup var storage: StorageOptions

  @Option(parsing: .unconditional, help: "How many users.") var users = 2_000
  @Option(help: "The random seed.") var seed: UInt64 = 1
  @Option(
    help: "The instant the data is relative to, ISO 8601 (default: today 00:00 UTC).",
    transform: UTCInstant.parse(argument:))
  var now: UTCInstant?
  @Option(
    name: .customLong("contact-ids"),
    help: """
      How contact ids are handed out: creation-order (as production: ids in time order across \
      users) or clustered (one run of ids per user, for comparison).
      """)
  var contactIDs: ContactIDLayout = .creationOrder
  @Option(
    name: .customLong("add-users"),
    help: """
      Instead of seeding an empty database: append this many sign-ups to a seeded one (ids after \
      the largest, each with a full address book, circles and state, created in the 8 hours \
      before --now). --seed must be the database's own seed; --users is ignored.
      """)
  var addUsers: Int?

  func validate() throws {
    guard users > 0 else { throw ValidationError("--users \(users): expected 1 or more users") }
    if let addUsers, addUsers < 1 {
      throw ValidationError("--add-users \(addUsers): expected 1 or more users")
    }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs-dev seed") {
      let config = try storage.loadConfig()
      let opened = try storage.openStorage(config, create: true)
      let instant = now ?? SeedDefaults.todayUTC()
      let summary: SeedSummary
      do {
        if let addUsers {
          summary = try Seeder.addSignUps(
            into: opened, options: SeedOptions(users: addUsers, seed: seed, now: instant),
            progress: SeedDefaults.progress())
        } else {
          let options = SeedOptions(users: users, seed: seed, now: instant, contactIDs: contactIDs)
          summary = try Seeder.seed(into: opened, options: options, progress: SeedDefaults.progress())
        }
      } catch let error as SeedError {
        // Not a failure of the database: a request that makes no sense for this one.
        throw CLIFailure(.usage, error.description)
      }
      print(SeedDefaults.describe(summary, location: opened.location))
    }
  }
}

enum SeedDefaults {
  /// Midnight UTC today: the default `--now`, so that two seeds on the same day are identical.
  static func todayUTC() -> UTCInstant {
    CalendarDate(utcInstant: .now).startOfDay
  }

  static func progress() -> ((Int, Int) -> Void)? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return { done, total in
      FileHandle.standardError.write(Data("\rseeding users \(done)/\(total)".utf8))
      if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
  }

  static func describe(_ summary: SeedSummary, location: String) -> String {
    let tables = summary.rows.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
    return (["\(location): seeded in \(String(format: "%.1f", summary.elapsedSeconds)) s"] + tables)
      .joined(separator: "\n")
  }
}

extension ContactIDLayout: ExpressibleByArgument {}
