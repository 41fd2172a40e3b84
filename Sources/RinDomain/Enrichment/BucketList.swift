/// Buckets (`RinPhoneSuffixes.bucket`, non-negative) kept as text: ascending decimal numbers
/// separated by commas, the empty text for none. Read byte by byte: every examined owner's
/// contacts' lists are read every night.
public enum BucketList {
  public static func text(_ buckets: some Sequence<Int64>) -> String {
    buckets.map(String.init).joined(separator: ",")
  }

  /// nil when `text` is not such a list (an empty item, a sign, anything but digits and commas,
  /// a number past `Int64.max`).
  public static func parse(_ text: String) -> [Int64]? {
    var buckets: [Int64] = []
    guard !text.isEmpty else { return buckets }
    var number: Int64 = 0
    var digits = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard let next = DecimalDigits.appending(byte, to: number) else { return nil }
        (number, digits) = (next, digits + 1)
      case UInt8(ascii: ","):
        guard digits > 0 else { return nil }
        buckets.append(number)
        (number, digits) = (0, 0)
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    buckets.append(number)
    return buckets
  }
}
