import Foundation
import RinTestSupport

/// A small tmpfs mounted for one test, to make a full disk or a read-only file system for
/// real. Needs root with mount permission (the test machine and CI have it); tests that use
/// it are skipped, and say so, where mounting is not permitted.
final class ScratchMount {
  let path: String
  private let directory: TemporaryDirectory

  init(kilobytes: Int) throws {
    directory = try TemporaryDirectory()
    path = directory.path("mnt")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    guard Self.system("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) else {
      throw ReliabilityFailure("could not mount a tmpfs at \(path)")
    }
  }

  /// `remount` options: `ro`, `rw`, `size=…k`.
  func remount(_ options: String) throws {
    guard Self.system("/bin/mount", ["-o", "remount,\(options)", path]) else {
      throw ReliabilityFailure("could not remount \(path) with \(options)")
    }
  }

  deinit { _ = Self.system("/bin/umount", ["-l", path]) }

  /// Whether this process may mount file systems (root with CAP_SYS_ADMIN).
  static let isPermitted: Bool = (try? ScratchMount(kilobytes: 64)) != nil

  /// Whether `chattr +i` works on the temporary folder's file system.
  static let canMakeFilesImmutable: Bool = {
    guard let directory = try? TemporaryDirectory() else { return false }
    let file = directory.path("probe")
    _ = FileManager.default.createFile(atPath: file, contents: Data())
    defer { _ = system("/usr/bin/chattr", ["-i", file]) }
    return system("/usr/bin/chattr", ["+i", file])
  }()

  @discardableResult
  static func system(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
