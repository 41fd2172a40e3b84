import Yams

extension ConfigError {
  /// Yams already turns libyaml's 0-based marks into 1-based ones (checked by a test);
  /// nodes built in code have no mark and point at the file's start.
  init(file: String, mark: Mark?, message: String) {
    self.init(
      file: file, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1), message: message)
  }
}
