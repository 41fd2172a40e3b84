extension String {
  /// Without leading and trailing white space (Unicode's definition, so no-break spaces too).
  var trimmingWhitespace: Substring {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = self[start...].lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<end]
  }
}
