extension String {
  /// Without leading and trailing white space (Unicode's definition, so no-break spaces too).
  var trimmingWhitespace: Substring {
    // Nearly every value the jobs read starts and ends with a printable ASCII byte: then its
    // first and last characters are not white space (a character of several scalars never is,
    // but CR LF, whose last byte is LF), and Unicode's properties need no lookup (which would
    // take a tenth of circle-patterns' CPU per examined owner).
    if let first = utf8.first, let last = utf8.last, first.isPrintableASCII, last.isPrintableASCII {
      return self[...]
    }
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = self[start...].lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<end]
  }
}

extension UInt8 {
  /// `!`…`~`: ASCII, neither white space nor a control.
  var isPrintableASCII: Bool { self > 0x20 && self < 0x7F }

  /// ASCII white space as Unicode defines it (tab, line feed, vertical tab, form feed, carriage
  /// return, space): in an ASCII string exactly the bytes of its white-space characters.
  var isASCIIWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
}
