import RinDomain
import RinTestSupport
import Testing

@Suite("Which owners a job examines", .onItsOwnThread)
struct OwnerStampsTests {
  static let day = Duration.seconds(86_400)
  static let week = day * 7

  var stamps: OwnerStamps {
    var stamps = OwnerStamps()
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
      { (s: inout OwnerStamps) in s.contacts[0] = 4 },
      { $0.contacts[3] = 1_795_100_000 },
      { $0.circles[1] = 0 },
      { $0.members[2] = 421 },
      { $0.removals = [1, 5, 1_795_100_000] },
      { $0.region = "GB" },
      { $0.region = nil },
      { $0.related = 5 },
    ] {
      var changed = stamps
      change(&changed)
      #expect(changed.fingerprint(settings: 1) != base)
    }
    // Sums that move from one table to the next are another owner's inputs.
    var moved = OwnerStamps()
    moved.circles = stamps.contacts
    var original = OwnerStamps()
    original.contacts = stamps.contacts
    #expect(moved.fingerprint(settings: 1) != original.fingerprint(settings: 1))
  }

  @Test func anOwnerIsExaminedWhenNewChangedDueFoundByThePassOrForced() {
    let now: UTCInstant = 1_795_348_800
    func reason(
      _ stored: (Int64, UTCInstant)?, _ fingerprint: Int64 = 9, found: Bool = false, forced: Bool = false
    ) -> OwnerExamination? {
      OwnerExamination.reason(
        stored: stored.map { StoredOwnerExamination(fingerprint: $0.0, examinedAt: $0.1) },
        fingerprint: fingerprint, now: now, foundByPass: found, forced: forced)
    }
    #expect(reason(nil) == .new)
    #expect(reason(nil, found: true) == .new)
    #expect(reason((9, now - Self.day)) == nil)
    #expect(
      reason((9, now - .seconds(400 * 86_400))) == nil, "an unchanged owner stays unexamined, however long")
    #expect(reason((8, now - Self.day)) == .changed)
    #expect(
      reason((8, now - Self.day), found: true) == .changed, "a stamp explains it: not counted as unstamped")
    #expect(reason((9, now - Self.day), found: true) == .periodic)
    #expect(reason((9, now - Self.day), forced: true) == .forced)
    let dueTonight = StoredOwnerExamination(fingerprint: 9, examinedAt: now - Self.day, dueAt: now)
    let dueTomorrow = StoredOwnerExamination(
      fingerprint: 9, examinedAt: now - Self.day, dueAt: now + .seconds(1))
    func reason(_ stored: StoredOwnerExamination) -> OwnerExamination? {
      OwnerExamination.reason(stored: stored, fingerprint: 9, now: now, foundByPass: false, forced: false)
    }
    #expect(reason(dueTonight) == .due, "due at the run's instant")
    #expect(reason(dueTomorrow) == nil)
    #expect(reason((8, now), forced: true) == .forced)
    let wholly = [OwnerExamination.new, .periodic, .forced, .changed, .due].filter { $0.readsEveryContact }
    #expect(wholly == [.new, .periodic, .forced])
  }

  /// The digests an examination stores (`PeriodicPass`): every contact's for a new owner, one the
  /// pass found or `--full`; else only those stamped after the last examination.
  @Test func anExaminationStoresTheDigestsOfWhatItMustHaveSeenChange() {
    let last: UTCInstant = 1_795_348_800
    for reason in [OwnerExamination.new, .periodic, .forced] {
      #expect(reason.storesDigest(ofContactStamped: 0, lastExaminedAt: last))
    }
    for reason in [OwnerExamination.changed, .due] {
      #expect(reason.storesDigest(ofContactStamped: last.seconds + 1, lastExaminedAt: last))
      #expect(
        !reason.storesDigest(ofContactStamped: last.seconds, lastExaminedAt: last),
        "stamped at the examination")
      #expect(!reason.storesDigest(ofContactStamped: 5, lastExaminedAt: last))
      #expect(reason.storesDigest(ofContactStamped: 5, lastExaminedAt: nil), "never examined: everything")
    }
  }
}
