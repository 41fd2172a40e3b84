import CLibPQ
import Foundation
import Synchronization

/// A throwaway PostgreSQL server for this test process: `initdb` and `pg_ctl start` in a
/// temporary directory, on a free loopback port, its socket in the same directory. Started on
/// first use, stopped when the process exits. Each test gets a database of its own.
package final class PostgresCluster: Sendable {
  package let directory: String
  package let port: Int
  private let bin: String
  /// The user the server runs as (root cannot), nil when it runs as us.
  private let owner: String?
  private let created = Atomic<Int>(0)
  private let admin = Mutex<Void>(())

  /// The one cluster of this process (or why it could not start).
  package static let shared: Result<PostgresCluster, PostgresClusterError> = Result { try PostgresCluster() }
    .mapError { $0 as? PostgresClusterError ?? PostgresClusterError(message: "\($0)") }

  /// Folder of `initdb`, `pg_ctl` and `postgres`: `$RIN_PG_BIN`, else the newest Debian install.
  package static let binaries: String? = {
    let fm = FileManager.default
    if let explicit = ProcessInfo.processInfo.environment["RIN_PG_BIN"] { return explicit }
    let root = "/usr/lib/postgresql"
    let versions = ((try? fm.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
    return versions.reversed().map { "\(root)/\($0)/bin" }.first {
      fm.isExecutableFile(atPath: "\($0)/initdb")
    }
  }()

  package static func noteSkipped() {
    _ = skipNote
  }
  private static let skipNote: Void = {
    FileHandle.standardError.write(
      Data("note: PostgreSQL server binaries not found (set RIN_PG_BIN); PostgreSQL cases skipped\n".utf8))
  }()

  /// A cluster of the test's own, for what would disturb the shared one: server settings
  /// (`-c name=value`, e.g. `log_lock_waits=on`), a restart, a standby. Stopped at exit.
  package static func privateCluster(settings: [String] = []) throws -> PostgresCluster {
    try PostgresCluster(settings: settings)
  }

  private init(settings extra: [String] = []) throws {
    guard let bin = Self.binaries else {
      throw PostgresClusterError(
        message: "PostgreSQL server binaries not found: install postgresql or set RIN_PG_BIN")
    }
    self.bin = bin
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("rin-pg-\(getpid())-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    port = try Self.freePort()
    // initdb refuses to run as root: as root the server runs as an unprivileged user.
    let owner = getuid() == 0 ? Self.unprivilegedUser() : nil
    self.owner = owner
    if let owner { try Self.run("/bin/chown", ["-R", owner, directory], as: nil) }
    try Self.run(
      "\(bin)/initdb",
      [
        "-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "--locale=C", "--encoding=UTF8",
        "--no-sync",
      ],
      as: owner)
    let settings =
      [
        "-p \(port)", "-k \(directory)", "-c listen_addresses=127.0.0.1", "-c fsync=off",
        "-c synchronous_commit=off", "-c full_page_writes=off", "-c max_connections=300",
      ].joined(separator: " ") + extra.map { " -c \($0)" }.joined()
    try Self.run(
      "\(bin)/pg_ctl",
      ["-D", "\(directory)/data", "-o", settings, "-l", "\(directory)/server.log", "-w", "start"],
      as: owner)
    PostgresClusterShutdown.register(bin: bin, data: "\(directory)/data", directory: directory, owner: owner)
  }

  /// The server's log (`log_lock_waits` lines, deadlocks, who was terminated).
  package var serverLog: String { "\(directory)/server.log" }

  /// `pg_ctl restart -m fast`: every session is ended (`57P01`) and the server comes back with
  /// the same settings; returns once it accepts connections again.
  package func restartFast() throws {
    try Self.run("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "restart"], as: owner)
  }

  /// A streaming standby of this server (`pg_basebackup -R`, then a second local server on a
  /// port of its own), named `name` in `pg_stat_replication`; stopped at exit.
  package func startStandby(name: String) throws -> PostgresStandby {
    let data = "\(directory)/\(name)"
    let standbyPort = try Self.freePort()
    try Self.run(
      "\(bin)/pg_basebackup",
      ["-D", data, "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-R", "-X", "stream", "--no-sync"],
      as: owner)
    let conninfo =
      "primary_conninfo = 'host=127.0.0.1 port=\(port) user=postgres application_name=\(name)'\n"
    let auto = "\(data)/postgresql.auto.conf"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: auto))
    handle.seekToEndOfFile()
    handle.write(Data(conninfo.utf8))
    try handle.close()
    // A hot standby needs max_connections (and the like) at least the primary's.
    let settings =
      "-p \(standbyPort) -k \(directory) -c listen_addresses=127.0.0.1 -c hot_standby=on -c max_connections=300 -c fsync=off"
    try Self.run(
      "\(bin)/pg_ctl", ["-D", data, "-o", settings, "-l", "\(directory)/\(name).log", "-w", "start"],
      as: owner)
    PostgresClusterShutdown.register(bin: bin, data: data, directory: directory, owner: owner)
    return PostgresStandby(name: name, url: "postgresql://postgres@127.0.0.1:\(standbyPort)/postgres")
  }

  /// `postgresql://` URL of a new, empty database, or of a copy of the database `template`
  /// (which must have no session open).
  package func createDatabase(template: String? = nil) throws -> String {
    let name = "rin_test_\(created.add(1, ordering: .relaxed).newValue)"
    try admin.withLock { _ in
      let connection = try TestPostgresConnection(url: url(database: "postgres"))
      try connection.execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
    }
    return url(database: name)
  }

  /// The name in a `url(database:)`.
  package static func databaseName(of url: String) -> String {
    String(url[url.index(after: url.lastIndex(of: "/") ?? url.startIndex)...])
  }

  package func url(database: String) -> String {
    "postgresql://postgres@127.0.0.1:\(port)/\(database)"
  }

  private static func freePort() throws -> Int {
    do { return try LoopbackPort.free() } catch {
      throw PostgresClusterError(message: "could not find a free loopback port")
    }
  }

  private static func unprivilegedUser() -> String {
    getpwnam("postgres") != nil ? "postgres" : "nobody"
  }

  /// Runs a tool, as `user` through runuser when given; throws with its output when it fails.
  /// posix_spawn rather than Foundation's Process: the server that `pg_ctl start` leaves running
  /// would inherit Process's status socket and keep the wait from ever ending; here the child
  /// gets no descriptor beyond its output.
  package static func run(_ tool: String, _ arguments: [String], as user: String?) throws {
    // bash (dash takes one-digit descriptors only) closes every inherited descriptor above 2 before running the tool.
    let closeAll = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
    let command =
      ["/bin/bash", "-c", closeAll, "bash"] + (user.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [
        tool
      ]
    let argv = (command + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rin-pg-tool-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: log) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw PostgresClusterError(message: "cannot start \(tool): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    // WIFEXITED and WEXITSTATUS, spelled out (the macros do not import).
    guard status & 0x7f == 0 && (status >> 8) & 0xff == 0 else {
      throw PostgresClusterError(message: "\(tool) failed (status \(status)): \(text)")
    }
  }
}

package struct PostgresClusterError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}

/// A streaming standby started by `PostgresCluster.startStandby`.
package struct PostgresStandby: Sendable {
  package let name: String
  /// Its `postgres` database (read-only: a standby).
  package let url: String

  /// `pg_wal_replay_pause()`: the standby receives WAL but applies none, so its replay lags.
  package func pauseReplay() throws {
    try TestPostgresConnection(url: url).execute("SELECT pg_wal_replay_pause()")
  }

  package func resumeReplay() throws {
    try TestPostgresConnection(url: url).execute("SELECT pg_wal_replay_resume()")
  }
}

/// Stops the clusters (servers, and standbys first) when the test process exits (an `atexit`
/// handler cannot capture state).
package enum PostgresClusterShutdown {
  private static let state = Mutex<[(bin: String, data: String, directory: String, owner: String?)]>([])

  package static func register(bin: String, data: String, directory: String, owner: String?) {
    let first = state.withLock { servers in
      servers.append((bin, data, directory, owner))
      return servers.count == 1
    }
    guard first else { return }
    atexit {
      for s in PostgresClusterShutdown.state.withLock({ $0 }).reversed() {
        try? PostgresCluster.run(
          "\(s.bin)/pg_ctl", ["-D", s.data, "-m", "immediate", "-w", "stop"], as: s.owner)
      }
      for s in PostgresClusterShutdown.state.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: s.directory)
      }
    }
  }
}
