import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Circle pattern rules", .onItsOwnThread)
struct CirclePatternFinderTests {
  static let rules = CirclePatternThresholds()

  static func contact(
    _ id: ContactID, domains: Set<String> = [], freeMail: Bool = false, areas: Set<String> = [],
    phone: Bool = false,
    family: String? = nil
  ) -> ContactEvidence {
    ContactEvidence(
      contactID: id, emailDomains: domains, hasEmail: freeMail, areaCodes: areas, hasPhone: phone,
      familyName: family)
  }

  func groups(
    _ contacts: [ContactEvidence], members: Set<ContactID>, removed: Set<ContactID> = [],
    rules: CirclePatternThresholds = rules
  )
    -> [CircleGroup]
  {
    CirclePatternFinder(contacts: contacts, thresholds: rules).groups(
      circleID: 9, memberIDs: members, removedIDs: removed)
  }

  @Test func aSharedWorkDomainSuggestsTheOtherContactsAtIt() {
    // 3 of 5 members with an email (60 %) are at acme; a sixth member has no email at all.
    let members =
      (1...3).map { Self.contact($0, domains: ["acme.co.uk"]) }
      + [Self.contact(4, freeMail: true), Self.contact(5, domains: ["globex.com"]), Self.contact(6)]
    let others =
      (10...12).map { Self.contact($0, domains: ["acme.co.uk"]) } + [
        Self.contact(13, domains: ["globex.com"])
      ]
    let found = groups(members + others, members: Set(1...6))
    #expect(found.map(\.pattern) == [.emailDomain])
    #expect(found.first?.value == "acme.co.uk")
    #expect(found.first?.contactIDs == [10, 11, 12])
    #expect(found.first?.confidence == 0.5, "3 of the 6 live members match")
  }

  @Test func aSharedAreaCodeSuggestsNeighbours() {
    // Members with a phone but no area code (a European mobile) still count in the share.
    let members = (1...3).map { Self.contact($0, areas: ["+1-415"]) } + [Self.contact(4, phone: true)]
    let others =
      [12, 11, 10, 14].map { Self.contact($0, areas: ["+1-415"]) } + [Self.contact(13, areas: ["+1-212"])]
    let found = groups(members + others, members: Set(1...4))
    #expect(found.map(\.pattern) == [.areaCode])
    #expect(found.first?.value == "+1-415")
    #expect(found.first?.contactIDs == [10, 11, 12, 14])
    #expect(found.first?.confidence == 0.75)
  }

  @Test func aSharedFamilyNameSuggestsRelatives() {
    // 3 of 6 members is exactly the 50 % threshold.
    let members =
      (1...3).map { Self.contact($0, family: "muller") } + (4...6).map { Self.contact($0, family: "smith") }
    let others =
      (10...12).map { Self.contact($0, family: "muller") }
      + (13...14).map { Self.contact($0, family: "smith") }
    let found = groups(members + others, members: Set(1...6))
    #expect(found.map(\.value) == ["muller"], "smith has only 2 candidates")
    #expect(found.first?.pattern == .familyName)
  }

  @Test func aCircleWhereTwoPatternsApplyGetsTwoGroups() {
    let members = (1...4).map { Self.contact($0, domains: ["acme.co.uk"], family: "garcia") }
    let others =
      (10...12).map { Self.contact($0, domains: ["acme.co.uk"]) }
      + (20...22).map { Self.contact($0, family: "garcia") }
    let found = groups(members + others, members: Set(1...4))
    #expect(found.map(\.pattern) == [.emailDomain, .familyName])
    #expect(found.map(\.contactIDs) == [[10, 11, 12], [20, 21, 22]])
    #expect(Set(found.map(\.fingerprint)).count == 2)
  }

  @Test func belowTheShareOrTheMinimumNothingIsSuggested() {
    // 3 of 6 members with an email is 50 %, under 60 %.
    let members =
      (1...3).map { Self.contact($0, domains: ["acme.co.uk"]) }
      + (4...6).map { Self.contact($0, freeMail: true) }
    let others = (10...14).map { Self.contact($0, domains: ["acme.co.uk"]) }
    #expect(groups(members + others, members: Set(1...6)).isEmpty)
    // 2 members sharing it is 100 % but fewer than 3 members.
    let pair = (1...2).map { Self.contact($0, domains: ["acme.co.uk"]) } + [Self.contact(3, family: "x")]
    #expect(groups(pair + others, members: Set(1...3)).isEmpty)
    // A circle with fewer than 3 live members (an id that is no live contact does not count).
    #expect(groups(pair + others, members: [1, 2, 99]).isEmpty)
  }

  @Test func membersAndRemovedContactsAreNeverCandidates() {
    let members = (1...3).map { Self.contact($0, family: "patel") }
    let others = (10...13).map { Self.contact($0, family: "patel") }
    let found = groups(members + others, members: Set(1...3), removed: [11])
    #expect(found.first?.contactIDs == [10, 12, 13])
    #expect(
      groups(members + others, members: Set(1...3), removed: [11, 12]).isEmpty, "only 2 candidates left")
  }

  @Test func thresholdsComeFromSettings() {
    let members = (1...2).map { Self.contact($0, family: "sato") }
    let others = [Self.contact(10, family: "sato")]
    let loose = CirclePatternThresholds(familyNameShare: 1, minMembers: 2, minCandidates: 1)
    #expect(groups(members + others, members: [1, 2], rules: loose).map(\.contactIDs) == [[10]])
  }

  @Test func theFingerprintIsTheHexSHA256OfTheGroup() {
    // printf '%s' '42|email_domain|acme.co.uk|7,19,23' | sha256sum
    let group = CircleGroup(
      circleID: 42, pattern: .emailDomain, value: "acme.co.uk", contactIDs: [23, 7, 19], confidence: 1)
    #expect(group.contactList == "7,19,23")
    #expect(group.fingerprint == "0ad6bc07c2770460561bfc213dc0778aa65f768c82ce15f00a0fa4d3c9b01046")
  }
}
