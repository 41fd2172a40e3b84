import RinDomain
import RinTestSupport
import Testing

@Suite("A user's local date", .onItsOwnThread)
struct LocalDayTests {
  /// Unix seconds of a UTC wall-clock time, written out so the test does not use the code it checks.
  static let nov22At1100Z: UTCInstant = 1_795_345_200

  func day(_ instant: UTCInstant, _ zone: String?) -> String {
    LocalDay(at: instant, zoneName: zone).date.description
  }

  @Test func utcMinus12AndUtcPlus14AreTwoDaysApart() {
    #expect(day(Self.nov22At1100Z, "Etc/GMT+12") == "2026-11-21")
    #expect(day(Self.nov22At1100Z, "UTC") == "2026-11-22")
    #expect(day(Self.nov22At1100Z, "Pacific/Kiritimati") == "2026-11-23")
    #expect(LocalDay(at: Self.nov22At1100Z, zoneName: "Pacific/Kiritimati").zone == .valid)
  }

  @Test func aUserBehindUTCIsStillOnYesterday() {
    // 2026-11-22T05:00Z is 21:00 on Nov 21 in Los Angeles.
    #expect(day(1_795_323_600, "America/Los_Angeles") == "2026-11-21")
    #expect(day(1_795_323_600, "Asia/Tokyo") == "2026-11-22")
  }

  @Test func theOffsetIsTheOneInForceAtTheInstant() {
    // 2026-11-01T04:30Z: 00:30 EDT on Nov 1 (DST ends at 06:00Z); a winter offset would say Oct 31.
    #expect(day(1_793_507_400, "America/New_York") == "2026-11-01")
    // 2026-11-08T04:30Z: 23:30 EST on Nov 7; the summer offset would say Nov 8.
    #expect(day(1_794_112_200, "America/New_York") == "2026-11-07")
    // 2027-03-15T04:30Z: 00:30 EDT on Mar 15, the day after DST starts.
    #expect(day(1_805_085_000, "America/New_York") == "2027-03-15")
    // Lord Howe moves by half an hour: 2026-11-22T13:15Z is 00:15 (UTC+11) on Nov 23.
    #expect(day(1_795_353_300, "Australia/Lord_Howe") == "2026-11-23")
    // Kathmandu is UTC+5:45: 18:15Z is exactly midnight.
    #expect(day(1_795_371_300, "Asia/Kathmandu") == "2026-11-23")
    #expect(day(1_795_371_299, "Asia/Kathmandu") == "2026-11-22")
  }

  @Test(arguments: [
    "Mars/Base", "America/New York", "GMT+25", "Europe/Londn", "GMT+5", "UTC+3", " Europe/London",
  ])
  func anInvalidZoneFallsBackToUTCAndSaysSo(_ zone: String) {
    let local = LocalDay(at: Self.nov22At1100Z + .seconds(13 * 3_600), zoneName: zone)
    #expect(local.zone == .invalid)
    #expect(local.date.description == "2026-11-23")
  }

  @Test func aMissingZoneFallsBackToUTCAndSaysSo() {
    for zone in [nil, ""] as [String?] {
      let local = LocalDay(at: Self.nov22At1100Z, zoneName: zone)
      #expect(local.zone == .missing)
      #expect(local.date.description == "2026-11-22")
    }
  }

  @Test(arguments: ["UTC", "Etc/UTC", "GMT", "Etc/GMT+12", "US/Eastern", "Asia/Calcutta", "Europe/Kyiv"])
  func tzDatabaseNamesAreValid(_ zone: String) {
    #expect(LocalDay(at: Self.nov22At1100Z, zoneName: zone).zone == .valid)
  }
}
