import Foundation
import RinTestSupport
import Testing

/// Issue 52 item 8: a PostgreSQL server that accepts the connection and never answers (a hung
/// server, a black-holing proxy) ends the run within `connect_timeout` + 5 s with exit 75, and a
/// SIGTERM while the connect waits ends it within 5 s, exit 75, instead of hanging for ever.
@Suite("connecting to a server that never answers", .onItsOwnThread)
struct ConnectTimeoutCommandLineTests {
  /// A loopback socket that listens and never accepts: the kernel completes the TCP handshake
  /// from the backlog, so libpq sends its first packet and no answer ever comes.
  final class SilentServer {
    let descriptor: Int32
    let port: Int

    init() throws {
      (descriptor, port) = try LoopbackPort.bound(listening: true)
    }

    var url: String { "postgresql://rin_job@127.0.0.1:\(port)/rin" }

    deinit { close(descriptor) }
  }

  static func config(_ server: SilentServer, connectTimeout: String, in directory: TemporaryDirectory) throws
    -> String
  {
    try TestConfigFile.write(
      """
      storage:
        url: "\(server.url)"
        connect_timeout: \(connectTimeout)
      """, in: directory)
  }

  @Test func aSilentServerEndsTheRunWithinTheConnectTimeoutWithExit75() async throws {
    let server = try SilentServer()
    let directory = try TemporaryDirectory()
    let config = try Self.config(server, connectTimeout: "2s", in: directory)
    let started = ContinuousClock.now
    let job = try BackgroundProcess("rin-badge-recount", ["--config", config])
    let status = try await job.exitStatus(timeout: 2 + 5)
    if status == nil { job.stop(signal: SIGKILL) }
    #expect(status == 75, "\(job.text)")
    #expect(ContinuousClock.now - started < .seconds(2 + 5))
    #expect(job.text.contains("no answer from the server within 2 s"), "\(job.text)")
  }

  @Test func sigtermWhileConnectingEndsTheRunWithin5SecondsWithExit75() async throws {
    let server = try SilentServer()
    let directory = try TemporaryDirectory()
    let config = try Self.config(server, connectTimeout: "60s", in: directory)
    let job = try BackgroundProcess("rinjobs", ["status", "--config", config])
    try await Task.sleep(for: .seconds(1.5))
    job.send(SIGTERM)
    let signalled = ContinuousClock.now
    let status = try await job.exitStatus(timeout: 5)
    if status == nil { job.stop(signal: SIGKILL) }
    #expect(status == 75, "\(job.text)")
    #expect(ContinuousClock.now - signalled < .seconds(5))
    #expect(job.text.contains("stopped by a signal while connecting"), "\(job.text)")
  }
}
