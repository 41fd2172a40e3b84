/// Parses one field: `*`, `a`, `a-b`, `*/n`, `a-b/n`, `a/n`, and comma lists of those.
struct CronFieldParser {
  let kind: CronFieldKind

  func parse(_ text: String) throws(CronParseError) -> CronField {
    var values = Set<Int>()
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    for item in items {
      guard !item.isEmpty else { throw fail("empty item in list '\(text)'") }
      values.formUnion(try parseItem(String(item)))
    }
    if kind == .dayOfWeek, values.remove(7) != nil { values.insert(0) }
    return CronField(values: values, isWildcard: text == "*")
  }

  private func parseItem(_ item: String) throws(CronParseError) -> StrideThrough<Int> {
    let parts = item.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2 else { throw fail("'\(item)' has more than one '/'") }
    let step = try parts.count == 2 ? parseStep(String(parts[1])) : 1
    let base = String(parts[0])
    if base == "*" { return stride(from: kind.range.lowerBound, through: kind.range.upperBound, by: step) }
    let bounds = base.split(separator: "-", omittingEmptySubsequences: false)
    guard bounds.count <= 2 else { throw fail("'\(base)' is not a value or a range a-b") }
    let low = try parseValue(String(bounds[0]))
    // `a/n` means from a to the end of the range, stepping by n.
    let high =
      try bounds.count == 2
      ? parseValue(String(bounds[1]))
      : (parts.count == 2 ? kind.range.upperBound : low)
    guard low <= high else {
      let sundayHint = kind == .dayOfWeek ? " (use 7 for Sunday at the end of a range)" : ""
      throw fail("range \(base) goes backwards; write the smaller value first\(sundayHint)")
    }
    return stride(from: low, through: high, by: step)
  }

  private func parseStep(_ text: String) throws(CronParseError) -> Int {
    guard let step = Int(text), text.allSatisfy(\.isASCIIDigit) else {
      throw fail("step '\(text)' is not a whole number")
    }
    guard step >= 1 else { throw fail("step \(step) must be at least 1") }
    return step
  }

  private func parseValue(_ text: String) throws(CronParseError) -> Int {
    if let index = kind.names.firstIndex(of: text.uppercased()) {
      return kind.range.lowerBound + index
    }
    guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let value = Int(text) else {
      let names = kind.names
      let alternative = names.isEmpty ? "" : " or a name \(names.first!)-\(names.last!)"
      throw fail("'\(text)' is not a number\(alternative)")
    }
    guard kind.range.contains(value) else {
      throw fail("\(value) is out of range \(kind.range.lowerBound)-\(kind.range.upperBound)")
    }
    return value
  }

  private func fail(_ reason: String) -> CronParseError {
    CronParseError(field: kind.name, reason: reason)
  }
}
