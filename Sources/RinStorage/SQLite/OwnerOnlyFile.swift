import Foundation

/// A new SQLite database holds names, phones and emails: its folders (those created for it)
/// are 0700 and the file 0600 whatever the umask. SQLite creates the `-wal` and `-shm` files
/// with the database file's mode, so they are 0600 too.
enum OwnerOnlyFile {
  /// Creates the missing folders of `path` and an empty file at `path`. A failure is left to
  /// SQLite's open, which then names the cause.
  static func create(_ path: String) {
    var missing: [String] = []
    var folder = (path as NSString).deletingLastPathComponent
    while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
      missing.append(folder)
      folder = (folder as NSString).deletingLastPathComponent
    }
    for folder in missing.reversed() {
      guard mkdir(folder, 0o700) == 0 else { return }
      chmod(folder, 0o700)
    }
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    fchmod(descriptor, 0o600)
    close(descriptor)
  }
}
