/// Dialling plans of the regions users live in, from blocks verified against libphonenumber.
enum PhoneCatalogue {
  private static func nanp(_ region: String, _ areas: [String]) -> PhonePlan {
    // NANP subscriber digits are drawn by `PhoneFactory` (exchange rules), not by `next`.
    let blocks = areas.map { NumberBlock(prefix: $0, length: 10, next: "", groups: [3, 3, 4]) }
    return PhonePlan(region: region, countryCode: "1", trunk: "1", geographic: blocks, mobile: [])
  }

  private static func blocks(_ specs: [(String, Int, String)], _ groups: (String) -> [Int]) -> [NumberBlock] {
    specs.map { NumberBlock(prefix: $0.0, length: $0.1, next: $0.2, groups: groups($0.0)) }
  }

  static let plans: [String: PhonePlan] = {
    let list = [
      nanp(
        "US",
        [
          "212", "213", "202", "206", "303", "305", "310", "312", "404", "408", "415",
          "503", "510", "512", "617", "646", "650", "702", "713", "718",
        ]),
      nanp("CA", ["416", "604", "514", "403", "613", "647", "778", "905"]),
      PhonePlan(
        region: "GB", countryCode: "44", trunk: "0",
        geographic: blocks([
          ("20", 10, "378"), ("161", 10, "2345789"), ("141", 10, "2345789"),
          ("113", 10, "2345"), ("121", 10, "4"), ("131", 10, "2345"), ("117", 10, "9"),
        ]) {
          $0 == "20" ? [2, 4, 4] : [3, 3, 4]
        },
        mobile: blocks([
          ("7711", 10, ""), ("7723", 10, ""), ("7812", 10, ""), ("7956", 10, ""),
          ("7400", 10, ""), ("7507", 10, ""),
        ]) { _ in [4, 6] }),
      PhonePlan(
        region: "DE", countryCode: "49", trunk: "0",
        geographic: blocks([
          ("30", 10, "2345678"), ("89", 10, "12345678"), ("40", 10, "2345678"),
          ("69", 10, "2345678"), ("221", 10, "2345789"),
        ]) { [$0.count, 10 - $0.count] },
        mobile: blocks([("151", 11, ""), ("160", 10, ""), ("170", 10, ""), ("171", 10, ""), ("176", 11, "")])
        {
          $0 == "151" || $0 == "176" ? [3, 8] : [3, 7]
        }),
      PhonePlan(
        region: "FR", countryCode: "33", trunk: "0",
        geographic: blocks([
          ("1", 9, "2345"), ("4", 9, "2345789"), ("5", 9, "2345"), ("2", 9, "234"),
          ("3", 9, "2345"),
        ]) { _ in [1, 2, 2, 2, 2] },
        mobile: blocks([
          ("61", 9, ""), ("62", 9, ""), ("66", 9, ""), ("67", 9, ""), ("68", 9, ""),
          ("7", 9, "5678"),
        ]) { _ in [1, 2, 2, 2, 2] }),
      PhonePlan(
        region: "JP", countryCode: "81", trunk: "0",
        geographic: blocks([
          ("3", 9, "2345689"), ("6", 9, "2345689"), ("52", 9, "2345789"),
          ("92", 9, "2345789"),
        ]) { $0.count == 1 ? [1, 4, 4] : [2, 3, 4] },
        mobile: blocks([("90", 10, "123456789"), ("80", 10, ""), ("70", 10, "123456789")]) { _ in [2, 4, 4] }),
      PhonePlan(
        region: "IN", countryCode: "91", trunk: "0",
        geographic: blocks([("11", 10, "2345"), ("22", 10, "2345"), ("44", 10, "2345"), ("33", 10, "2345")]) {
          _ in [2, 4, 4]
        },
        mobile: blocks([("98", 10, ""), ("99", 10, ""), ("97", 10, ""), ("90", 10, ""), ("70", 10, "")]) {
          _ in [5, 5]
        }),
      PhonePlan(
        region: "BR", countryCode: "55", trunk: "0",
        geographic: blocks([("11", 10, "2345"), ("21", 10, "2345"), ("31", 10, "2345"), ("61", 10, "2345")]) {
          _ in [2, 4, 4]
        },
        mobile: blocks([("119", 11, "6789"), ("219", 11, "6789"), ("319", 11, "6789")]) { _ in [2, 5, 4] }),
      PhonePlan(
        region: "AU", countryCode: "61", trunk: "0",
        geographic: blocks([("2", 9, "89"), ("3", 9, "89"), ("7", 9, "3"), ("8", 9, "9")]) { _ in [1, 4, 4] },
        mobile: blocks([("40", 9, ""), ("41", 9, ""), ("42", 9, ""), ("43", 9, "")]) { _ in [3, 3, 3] }),
    ]
    return Dictionary(uniqueKeysWithValues: list.map { ($0.region, $0) })
  }()

  /// Regions in a fixed order (never iterate `plans`: dictionary order is not stable).
  static let regions = ["US", "GB", "DE", "FR", "IN", "JP", "BR", "CA", "AU"]

  /// The plan for a user's region; users with a missing or unknown region dial like the US.
  static func plan(for region: String?) -> PhonePlan {
    region.flatMap { plans[$0] } ?? plans["US"] ?? nanp("US", ["415"])
  }

  /// Text that is not a phone number, as the services sometimes store it.
  static let invalid = [
    "12", "abc", "", "   ", "+", "000", "555-CALL-NOW", "+1 415 234", "++44 20",
    "12345678901234567890", "(415) 234-567", "ext. 42",
  ]

  static let labels: [String?] = [
    "mobile", "mobile", "mobile", "home", "work", "iPhone", "main", "other", nil, "_$!<Mobile>!$_",
  ]
}
