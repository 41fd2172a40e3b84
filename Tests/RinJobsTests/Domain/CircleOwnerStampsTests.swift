import RinDomain
import Testing

@Suite("Which owners circle-patterns examines")
struct CircleOwnerStampsTests {
  static let day: Int64 = 86_400
  static let week = 7 * day

  var stamps: CircleOwnerStamps {
    var stamps = CircleOwnerStamps()
    stamps.contacts = [3, 60, 1_795_000_000, 0]
    stamps.circles = [1, 7, 0]
    stamps.members = [2, 30, 420, 1_795_000_000]
    stamps.region = "US"
    return stamps
  }

  @Test func everyStampRegionAndSettingChangesTheFingerprint() {
    let base = stamps.fingerprint(settings: 1)
    #expect(stamps.fingerprint(settings: 1) == base)
    #expect(stamps.fingerprint(settings: 2) != base, "settings")
    for change in [
      { (s: inout CircleOwnerStamps) in s.contacts[0] = 4 },
      { $0.contacts[3] = 1_795_100_000 },
      { $0.circles[1] = 0 },
      { $0.members[2] = 421 },
      { $0.removals = [1, 5, 1_795_100_000] },
      { $0.region = "GB" },
      { $0.region = nil },
    ] {
      var changed = stamps
      change(&changed)
      #expect(changed.fingerprint(settings: 1) != base)
    }
    // Sums that move from one table to the next are another owner's inputs.
    var moved = CircleOwnerStamps()
    moved.circles = stamps.contacts
    var original = CircleOwnerStamps()
    original.contacts = stamps.contacts
    #expect(moved.fingerprint(settings: 1) != original.fingerprint(settings: 1))
  }

  @Test func anOwnerIsExaminedWhenNewChangedDueOrForced() {
    let now: Int64 = 1_795_348_800
    func reason(_ stored: (Int64, Int64)?, _ fingerprint: Int64 = 9, forced: Bool = false)
      -> CircleOwnerExamination?
    {
      CircleOwnerExamination.reason(
        stored: stored.map { (fingerprint: $0.0, examinedAt: $0.1) }, fingerprint: fingerprint, now: now,
        fullEverySeconds: Self.week, forced: forced)
    }
    #expect(reason(nil) == .new)
    #expect(reason((9, now - Self.day)) == nil)
    #expect(reason((8, now - Self.day)) == .changed)
    #expect(reason((9, now - Self.week + 1)) == nil)
    #expect(reason((9, now - Self.week)) == .periodic, "full_every is inclusive: a week to the second")
    #expect(reason((9, now - Self.day), forced: true) == .forced)
    #expect(reason((8, now), forced: true) == .forced)
  }
}
