import Foundation

/// A file rin-jobs writes for an operator (a metrics file, the report): checked before any work,
/// written atomically (a temporary file in the same folder, then a rename, so a reader never
/// sees half a file), and every failure names the path and the cause in words.
public enum OutputFile {
  /// Why `path` cannot be written as the `what` (e.g. "metrics file"), or nil when it can: the
  /// path is not a folder, its folder exists, and a file can be created in it.
  public static func problem(writing path: String, what: String) -> String? {
    let prefix = "\(path): cannot write the \(what)"
    if path.isEmpty { return "cannot write the \(what) to an empty path; pass a file path" }
    var status = stat()
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      return "\(prefix): it is a folder; pass a file path inside it"
    }
    let folder = self.folder(of: path)
    guard stat(folder, &status) == 0 else {
      let cause = errno == ENOENT ? "the folder \(folder) does not exist" : "\(folder): \(describe(errno))"
      return "\(prefix): \(cause); create it or pass another path"
    }
    guard (status.st_mode & S_IFMT) == S_IFDIR else {
      return "\(prefix): \(folder) is not a folder; pass another path"
    }
    let probe = temporaryPath(for: path, tag: "probe")
    let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
    guard descriptor >= 0 else {
      return "\(prefix): cannot create a file in \(folder): \(describe(errno)); pass another path"
    }
    close(descriptor)
    unlink(probe)
    return nil
  }

  /// Writes `text` to `path` atomically; throws a `RunFailure` (`.output`) naming the path and
  /// the cause.
  public static func write(_ text: String, to path: String, what: String) throws {
    let prefix = "\(path): cannot write the \(what)"
    if let problem = problem(writing: path, what: what) { throw RunFailure(.output, problem) }
    let temporary = temporaryPath(for: path, tag: "tmp")
    let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY, 0o666)
    guard descriptor >= 0 else {
      throw RunFailure(.output, "\(prefix): cannot create \(temporary): \(describe(errno))")
    }
    var failure: Int32?
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      written += count
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, path) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw RunFailure(.output, "\(prefix): \(describe(failure))")
    }
  }

  /// Reads the UTF-8 text of `path` (the `what`, e.g. "crontab"); throws a `RunFailure`
  /// (`.output`) naming the path and the cause in words.
  public static func read(_ path: String, what: String) throws -> String {
    let prefix = "\(path): cannot read the \(what)"
    var status = stat()
    guard stat(path, &status) == 0 else { throw RunFailure(.output, "\(prefix): \(describe(errno))") }
    guard (status.st_mode & S_IFMT) != S_IFDIR else {
      throw RunFailure(.output, "\(prefix): it is a folder; pass a file path")
    }
    guard let file = fopen(path, "rb") else { throw RunFailure(.output, "\(prefix): \(describe(errno))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      bytes.append(contentsOf: chunk[0..<count])
      if count < chunk.count {
        if ferror(file) != 0 { throw RunFailure(.output, "\(prefix): \(describe(errno))") }
        break
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw RunFailure(.output, "\(prefix): it is not UTF-8 text")
    }
    return text
  }

  /// The cause of a failed system call, in words ("No such file or directory").
  public static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  static func folder(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  static func temporaryPath(for path: String, tag: String) -> String {
    let name = (path as NSString).lastPathComponent
    return (folder(of: path) as NSString).appendingPathComponent(".\(name).\(getpid()).\(tag)")
  }
}
