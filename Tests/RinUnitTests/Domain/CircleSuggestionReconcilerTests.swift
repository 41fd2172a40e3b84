import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Circle suggestions over time", .onItsOwnThread)
struct CircleSuggestionReconcilerTests {
  static func group(_ ids: [ContactID], value: String = "acme.co.uk") -> CircleGroup {
    CircleGroup(circleID: 9, pattern: .emailDomain, value: value, contactIDs: ids, confidence: 0.8)
  }

  static func stored(_ id: Int64, _ group: CircleGroup, _ status: CircleSuggestionStatus)
    -> ExistingCircleSuggestion
  {
    ExistingCircleSuggestion(
      id: id, circleID: group.circleID, pattern: group.pattern.rawValue, patternValue: group.value,
      fingerprint: group.fingerprint, status: status.rawValue)
  }

  @Test func fingerprintsAreHexSHA256OfCirclePatternValueAndSortedIDs() {
    // Vector from `printf '%s' '7|email_domain|acme.com|3,12,40' | sha256sum`.
    #expect(
      CircleSuggestionFingerprint.of(
        circleID: 7, pattern: .emailDomain, value: "acme.com", contactIDs: [40, 3, 12])
        == "a9f0e876c8db000420ce94f7ffe166bca6ad3b757709549c5af5867322ffe032")
  }

  @Test func aNewGroupIsInserted() {
    let plan = CircleSuggestionReconciler.plan(detected: [Self.group([1, 2, 3])], existing: [])
    #expect(plan.inserts == [Self.group([1, 2, 3])])
    #expect(plan.superseded.isEmpty)
  }

  @Test(
    "a stored group in any status is never written again",
    arguments: [
      CircleSuggestionStatus.open, .dismissed, .accepted, .superseded,
    ])
  func storedGroupsStay(status: CircleSuggestionStatus) {
    let group = Self.group([1, 2, 3])
    let plan = CircleSuggestionReconciler.plan(detected: [group], existing: [Self.stored(5, group, status)])
    #expect(plan == CircleSuggestionReconciler.Plan())
  }

  @Test func aGrownCandidateSetSupersedesTheOpenSuggestion() {
    let old = Self.group([1, 2, 3])
    let grown = Self.group([1, 2, 3, 4])
    let other = Self.group([7, 8, 9], value: "globex.com")
    let existing = [
      Self.stored(5, old, .open), Self.stored(6, other, .open),
      Self.stored(4, Self.group([1, 2]), .dismissed),
    ]
    let plan = CircleSuggestionReconciler.plan(detected: [grown, other], existing: existing)
    #expect(plan.inserts == [grown])
    #expect(plan.superseded == [5], "the other value's suggestion and the dismissed one stay as they are")
  }

  @Test func anOpenSuggestionTheDataNoLongerSupportsIsSuperseded() {
    // A candidate was deleted or removed: the group fell under the minimum, or became one
    // the user dismissed before.
    let open = Self.group([1, 2, 3, 4])
    let dismissed = Self.group([1, 2, 3])
    let existing = [
      Self.stored(5, open, .open), Self.stored(4, dismissed, .dismissed),
      Self.stored(3, Self.group([7, 8, 9]), .accepted),
    ]
    #expect(CircleSuggestionReconciler.plan(detected: [], existing: existing) == .init(superseded: [5]))
    #expect(
      CircleSuggestionReconciler.plan(detected: [dismissed], existing: existing) == .init(superseded: [5]))
  }

  @Test func aDismissedGroupWithADifferentSetMayComeBackAsANewGroup() {
    let dismissed = Self.group([1, 2, 3])
    let plan = CircleSuggestionReconciler.plan(
      detected: [Self.group([1, 2, 3, 4])], existing: [Self.stored(5, dismissed, .dismissed)])
    #expect(plan.inserts.map(\.contactIDs) == [[1, 2, 3, 4]])
    #expect(plan.superseded.isEmpty)
  }
}
