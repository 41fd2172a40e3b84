import Foundation
import RinTestSupport
import Testing

/// Issue 52 item 2: the URL can leave the password out altogether and libpq reads it from its
/// password file (`PGPASSFILE`): nothing secret in argv, the environment or pipelines.yaml, and
/// no warning. A cluster of its own that asks this role for a password (scram-sha-256).
@Suite("libpq's password file", .onItsOwnThread)
struct PasswordFileCommandLineTests {
  @Test func aURLWithoutPasswordConnectsThroughPGPASSFILE() async throws {
    guard Backend.available.contains(.postgres) else { return }
    let directory = try TemporaryDirectory()
    let hba = directory.path("pg_hba.conf")
    try """
    local all all trust
    host all rin_pw 127.0.0.1/32 scram-sha-256
    host all all 127.0.0.1/32 trust
    """.write(toFile: hba, atomically: true, encoding: .utf8)
    chmod(hba, 0o644)
    chmod(directory.url.path, 0o755)
    let cluster = try await offPool { try PostgresCluster.privateCluster(settings: ["hba_file=\(hba)"]) }
    let admin = try TestPostgresConnection(url: cluster.url(database: "postgres"))
    _ = try admin.execute("CREATE ROLE rin_pw LOGIN PASSWORD 'pw-in-the-file'")
    _ = try admin.execute("CREATE DATABASE rin_pw_db OWNER rin_pw")
    let passfile = directory.path("pgpass")
    try "127.0.0.1:\(cluster.port):*:rin_pw:pw-in-the-file\n".write(
      toFile: passfile, atomically: true, encoding: .utf8)
    chmod(passfile, 0o600)
    let url = "postgresql://rin_pw@127.0.0.1:\(cluster.port)/rin_pw_db"

    let migrate = try await Executable.run(
      "rinjobs", ["migrate", "--db", url], environment: ["PGPASSFILE": passfile])
    #expect(migrate.exitCode == 0, "\(migrate.stderr)")
    #expect(!migrate.stderr.contains("warning"), "no password in --db: \(migrate.stderr)")
    let run = try await Executable.run(
      "rin-badge-recount", ["--json"], environment: ["PGPASSFILE": passfile, "RIN_DATABASE_URL": url])
    #expect(run.exitCode == 0, "\(run.stderr)")

    // Without the file the server's demand for a password is what fails: the file did it.
    let without = try await Executable.run(
      "rin-badge-recount", ["--db", url], environment: ["PGPASSFILE": directory.path("none")])
    #expect(without.exitCode != 0)
    #expect(without.stderr.contains("password"), "\(without.stderr)")
  }
}
