/// Sizes for people: `812 B`, `4.0 KiB`, `12.5 MiB`, `1,204.3 GiB` (binary units, one decimal),
/// and whole numbers grouped by thousands (`129,394,688`) for the exact figure beside them.
public enum ByteCountFormat {
  static let units = ["KiB", "MiB", "GiB", "TiB"]

  public static func human(_ bytes: Int64) -> String {
    guard bytes >= 1_024 || bytes <= -1_024 else { return "\(bytes) B" }
    var value = Double(bytes.magnitude)
    var unit = 0
    value /= 1_024
    while value >= 1_024 && unit < units.count - 1 {
      value /= 1_024
      unit += 1
    }
    let tenths = Int64((value * 10).rounded())
    return "\(bytes < 0 ? "-" : "")\(grouped(tenths / 10)).\(tenths % 10) \(units[unit])"
  }

  /// 1234567 → "1,234,567".
  public static func grouped(_ value: Int64) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }
}
