import Foundation
import RinTestSupport
import Testing

/// `rinjobs` called through a link named `rin-JOB` (as the runtime image installs the seven job
/// executables) is that job's executable: the same run as `rinjobs run JOB`.
@Suite("rinjobs through a rin-JOB link", .onItsOwnThread)
struct JobLinkCommandLineTests {
  @Test func aLinkNamedAfterAJobRunsThatJob() async throws {
    let db = try TestDatabase(seedUsers: 5)
    let link = db.directory.path("rin-badge-recount")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: Executable.buildFolder.appendingPathComponent("rinjobs").path)
    let process = try BackgroundProcess(executable: URL(fileURLWithPath: link), ["--db", db.path, "--json"])
    #expect(try await process.exitStatus() == 0, "\(process.text)")
    #expect(process.text.contains(#""job":"badge-recount""#), "\(process.text)")
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE job = 'badge-recount'") == 1)

    let other = db.directory.path("rin-nothing")
    try FileManager.default.createSymbolicLink(
      atPath: other, withDestinationPath: Executable.buildFolder.appendingPathComponent("rinjobs").path)
    let plain = try BackgroundProcess(executable: URL(fileURLWithPath: other), ["--version"])
    #expect(try await plain.exitStatus() == 0, "any other name is rinjobs itself: \(plain.text)")
  }
}
