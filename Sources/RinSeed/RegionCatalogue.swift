/// Where users live and which IANA zone their phone reports, including the extremes that
/// break naive date code: UTC+14, UTC−12, half-hour and 45-minute offsets, and garbage.
enum RegionCatalogue {
  static let regionWeights: [(String, Int)] = [
    ("US", 30), ("GB", 10), ("DE", 8), ("FR", 6), ("IN", 10), ("JP", 6), ("BR", 8), ("CA", 6), ("AU", 6),
  ]

  /// Region values the services sometimes store: missing, lower-case, unknown.
  static let oddRegions: [String?] = [nil, "", "gb", "XX", "EU"]

  static let zonesByRegion: [String: [String]] = [
    "US": [
      "America/New_York", "America/New_York", "America/Chicago", "America/Denver",
      "America/Los_Angeles", "America/Los_Angeles", "America/Phoenix", "America/Anchorage",
      "Pacific/Honolulu",
    ],
    "GB": ["Europe/London"],
    "DE": ["Europe/Berlin"],
    "FR": ["Europe/Paris"],
    "IN": ["Asia/Kolkata"],
    "JP": ["Asia/Tokyo"],
    "BR": ["America/Sao_Paulo", "America/Sao_Paulo", "America/Manaus", "America/Noronha"],
    "CA": ["America/Toronto", "America/Vancouver", "America/Halifax", "America/St_Johns"],
    "AU": [
      "Australia/Sydney", "Australia/Melbourne", "Australia/Perth", "Australia/Adelaide",
      "Australia/Lord_Howe", "Australia/Eucla",
    ],
  ]

  /// Travellers and expatriates: zones unrelated to the region.
  static let farZones = [
    "Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Chatham", "Asia/Kathmandu", "Pacific/Pago_Pago",
    "Pacific/Apia", "Asia/Tehran", "Etc/UTC", "UTC", "Europe/Dublin", "America/Argentina/Buenos_Aires",
    "Africa/Casablanca", "Pacific/Tongatapu", "Australia/Lord_Howe", "Asia/Singapore", "Europe/Moscow",
  ]

  /// Zone values a job must treat as invalid (and fall back to UTC); nil means a null column.
  static let invalidZones: [String?] = ["Mars/Base", "", nil, "America/New York", "GMT+25", "Europe/Londn"]

  /// Users whose id falls on these residues get these zones, so that even a 50-user database
  /// holds every extreme a date computation must survive.
  static let forcedZones: [Int64: String?] = [
    3: "Pacific/Kiritimati", 8: "Etc/GMT+12", 13: "Australia/Lord_Howe", 18: "Mars/Base",
    21: "", 23: nil, 11: "America/St_Johns", 16: "Asia/Kathmandu",
  ]
  static let forcedZoneModulus: Int64 = 100

  static func zone(region: String?, userID: Int64, _ rng: inout SeedRandom) -> String? {
    if let forced = forcedZones[userID % forcedZoneModulus] { return forced }
    let roll = rng.unit()
    if roll < 0.02 { return rng.pick(invalidZones) }
    if roll < 0.12 { return rng.pick(farZones) }
    return region.flatMap { zonesByRegion[$0] }.map { rng.pick($0) } ?? "America/New_York"
  }
}
