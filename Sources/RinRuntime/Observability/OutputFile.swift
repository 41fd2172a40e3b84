import Foundation

/// A file rin-jobs writes for an operator (a metrics file, the report): checked before any work,
/// written atomically (a temporary file in the same folder, then a rename, so a reader never
/// sees half a file), and every failure names the path and the cause in words. The temporary
/// file has a name nobody can guess and is created only if nothing is there (`mkstemp`:
/// `O_CREAT|O_EXCL`, so a symlink another user planted in a shared folder is never followed),
/// and it is 0640 whatever the umask: readable by the owner's group (the metrics collector),
/// nobody else.
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
    guard let (descriptor, probe) = createTemporary(for: path) else {
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
    guard let (descriptor, temporary) = createTemporary(for: path) else {
      throw RunFailure(.output, "\(prefix): cannot create a temporary file beside it: \(describe(errno))")
    }
    var failure: Int32?
    if fchmod(descriptor, mode) != 0 { failure = errno }
    let bytes = Array(text.utf8)
    var written = 0
    while failure == nil, written < bytes.count {
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

  /// A metrics file or a report: the owner writes, the owner's group reads.
  public static let mode: mode_t = 0o640

  /// A new file beside `path`, `.<name>.XXXXXX` (mkstemp: a random name, created exclusively,
  /// mode 0600 until `write` sets `mode`), open for writing; nil with `errno` set on failure.
  static func createTemporary(for path: String) -> (descriptor: Int32, path: String)? {
    let name = (path as NSString).lastPathComponent
    var template = Array(
      (folder(of: path) as NSString).appendingPathComponent(".\(name).XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return nil }
    return (descriptor, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
  }
}
