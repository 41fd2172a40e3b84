import Foundation

enum Terminal {
  static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  static func writeStderr(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
