/// Reading a non-negative decimal byte by byte, for the lists of numbers we keep as text and
/// read for every owner every night (`BucketList`, `ChurnDays`): no `String` splitting, and an
/// overflow is an error, not a wrap.
public enum DecimalDigits {
  /// `number` with the ASCII digit `byte` appended; nil when `byte` is not a digit or the result
  /// passes `Int64.max`.
  public static func appending(_ byte: UInt8, to number: Int64) -> Int64? {
    guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
    let (times, o1) = number.multipliedReportingOverflow(by: 10)
    let (sum, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
    return o1 || o2 ? nil : sum
  }
}
