/// Text an operator typed (a pause's reason) or a host supplied (`$USER`), made safe to store
/// and to print on a terminal: control characters (C0, DEL, C1: escape sequences that could
/// move the cursor, rewrite earlier lines or set the terminal's title) become `?`, and line
/// breaks a space, so that a value prints as the one line it is shown on.
public enum TerminalText {
  public static func printable(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0D, 0x09: result.unicodeScalars.append(" ")
      case 0x00...0x1F, 0x7F...0x9F: result.unicodeScalars.append("?")
      // Bidirectional overrides and isolates reorder what follows them on screen.
      case 0x202A...0x202E, 0x2066...0x2069: result.unicodeScalars.append("?")
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
