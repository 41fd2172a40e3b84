import Foundation
import RinDomain

/// Contacts that carry (or deliberately lack) a pattern group's trait.
extension ContactFactory {
  /// Every contact of `group` (index `g`), each tagged with its role.
  func drafts(for group: PatternGroup, index g: Int, _ rng: inout SeedRandom) -> [ContactDraft] {
    var result: [ContactDraft] = []
    for _ in 0..<group.members { result.append(matching(group, role: .member(g), &rng)) }
    for _ in 0..<group.extras { result.append(nonMatching(group, role: .member(g), &rng)) }
    for _ in 0..<group.candidates { result.append(matching(group, role: .candidate(g), &rng)) }
    for _ in 0..<group.removed { result.append(matching(group, role: .removed(g), &rng)) }
    for _ in 0..<group.deleted {
      var draft = matching(group, role: .candidate(g), &rng)
      draft.deletedAt = rng.instant(draft.createdAt...ctx.now)
      result.append(draft)
    }
    return result
  }

  private func matching(_ group: PatternGroup, role: ContactDraft.Role, _ rng: inout SeedRandom)
    -> ContactDraft
  {
    var draft = filler(&rng)
    draft.role = role
    draft.deletedAt = nil
    switch group.trait {
    case .emailDomain(let company):
      let gi = rng.below(NameCatalogue.givenNames.count)
      let fi = rng.below(NameCatalogue.familyNames.count)
      nameDraft(&draft, gi: gi, fi: fi, &rng)
      draft.company = rng.chance(0.8) ? company.name : nil
      let local = CompanyCatalogue.localPart(
        given: NameCatalogue.givenASCII[gi], family: NameCatalogue.familyASCII[fi], &rng)
      let domain = workDomain(company, &rng)
      draft.emails = [("\(local)@\(rng.chance(0.05) ? domain.uppercased() : domain)", "work")]
      if rng.chance(0.2) { draft.emails.append((email(gi: gi, fi: fi, company: nil, &rng), "home")) }
    case .areaCode(let block):
      let number = PhoneFactory.number(owner.plan, block: block, geographic: true, &rng)
      draft.phones = [
        (PhoneFactory.raw(number, ownerRegion: owner.region, &rng), rng.pick(PhoneCatalogue.labels))
      ]
      if rng.chance(0.2) { draft.phones.append((randomPhone(&rng), "mobile")) }
    case .familyName(let surname):
      draft.family = NameCatalogue.variant(of: surname, &rng)
      if let given = draft.given, let family = draft.family, draft.display != nil {
        draft.display = "\(given) \(family.trimmingCharacters(in: .whitespaces))"
      }
    }
    return draft
  }

  /// A member without the trait: a free-mail address, a mobile or foreign number, another surname.
  private func nonMatching(_ group: PatternGroup, role: ContactDraft.Role, _ rng: inout SeedRandom)
    -> ContactDraft
  {
    var draft = filler(&rng)
    draft.role = role
    switch group.trait {
    case .emailDomain:
      let gi = rng.below(NameCatalogue.givenNames.count)
      let fi = rng.below(NameCatalogue.familyNames.count)
      draft.emails = [(email(gi: gi, fi: fi, company: nil, &rng), "home")]
    case .areaCode:
      let number = PhoneFactory.number(owner.plan, mobile: true, &rng)
      draft.phones = [(PhoneFactory.raw(number, ownerRegion: owner.region, &rng), "mobile")]
    case .familyName:
      break
    }
    return draft
  }
}
