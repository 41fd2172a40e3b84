/// A range of real-format numbers: national significant numbers that start with `prefix`, then
/// one digit from `next`, then random digits up to `length`. Every block was checked against
/// libphonenumber's metadata (valid, and geographic blocks yield an area code), so the
/// area-code circles the seeder builds are ones the job can actually detect.
struct NumberBlock {
  let prefix: String
  let length: Int
  let next: String
  /// Digit group sizes of the national significant number, for human formats.
  let groups: [Int]
}

/// How one country writes numbers: its calling code, trunk prefix and number blocks.
struct PhonePlan {
  let region: String
  let countryCode: String
  /// Dialled before a national number ("0"); NANP numbers optionally take "1".
  let trunk: String
  let geographic: [NumberBlock]
  let mobile: [NumberBlock]

  var isNANP: Bool { countryCode == "1" }
}

/// A generated number: enough to write it in any of the ways people type numbers.
struct PhoneNumber {
  let plan: PhonePlan
  let nationalNumber: String
  let groups: [Int]
  let isGeographic: Bool

  var e164: String { "+\(plan.countryCode)\(nationalNumber)" }

  /// The national number cut into its digit groups ("415", "234", "5678").
  var parts: [Substring] {
    var result: [Substring] = []
    var start = nationalNumber.startIndex
    for size in groups {
      let end =
        nationalNumber.index(start, offsetBy: size, limitedBy: nationalNumber.endIndex)
        ?? nationalNumber.endIndex
      result.append(nationalNumber[start..<end])
      start = end
    }
    if start < nationalNumber.endIndex { result.append(nationalNumber[start...]) }
    return result
  }
}
