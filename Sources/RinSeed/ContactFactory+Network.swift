import RinDomain

/// Contacts that point at other Rin users (what enrichment-fetch's Rin-network source and
/// daily-score's `rin`/`mutual` counts feed on) and near-duplicates for merge suggestions.
extension ContactFactory {
  /// `other`'s entry in the owner's book, with `other`'s number as typed by the owner.
  /// `enriched`: an earlier enrichment run already linked it (`rin_user_id` set).
  func rinUser(_ other: UserProfile, phone: PhoneNumber, enriched: Bool, _ rng: inout SeedRandom)
    -> ContactDraft
  {
    var draft = ContactDraft()
    draft.role = .rinUser(other.id)
    draft.given = other.given
    draft.family = other.family
    draft.display = other.displayName
    draft.phones = [
      (PhoneFactory.raw(phone, ownerRegion: owner.region, &rng), rng.pick(PhoneCatalogue.labels))
    ]
    if rng.chance(0.3) {
      let gi = NameCatalogue.givenNames.firstIndex(of: other.given) ?? 0
      let fi = NameCatalogue.familyNames.firstIndex(of: other.family) ?? 0
      draft.emails = [(email(gi: gi, fi: fi, company: nil, &rng), "home")]
    }
    finish(&draft, &rng)
    if draft.source != "device" { draft.source = rng.chance(0.5) ? "invite" : "manual" }
    draft.rinUserID = enriched ? other.id : nil
    return draft
  }

  /// The owner saved their own number (the Rin-network match must skip it).
  func ownEntry(_ phone: PhoneNumber, _ rng: inout SeedRandom) -> ContactDraft {
    var draft = ContactDraft()
    draft.given = owner.given
    draft.family = owner.family
    draft.display = "Me"
    draft.phones = [(PhoneFactory.raw(phone, ownerRegion: owner.region, &rng), "mobile")]
    finish(&draft, &rng)
    draft.deletedAt = nil
    return draft
  }

  /// A second card for the same person: another spelling, a subset of the same numbers and
  /// addresses, usually created later (a second import, a manual entry).
  func duplicate(of index: Int, _ original: ContactDraft, _ rng: inout SeedRandom) -> ContactDraft {
    var draft = original
    draft.role = .duplicate(index)
    switch rng.below(4) {
    case 0: draft.given = original.given?.uppercased()
    case 1: draft.family = original.family?.lowercased()
    case 2: draft.display = nil
    default: draft.given = original.given.map { String($0.prefix(1)) + "." }
    }
    if draft.phones.count > 1 { draft.phones.removeLast() }
    if rng.chance(0.5) { draft.emails = [] }
    draft.source = rng.chance(0.5) ? "manual" : "device"
    draft.createdAt = rng.instant(original.createdAt...ctx.now)
    draft.updatedAt = draft.createdAt
    draft.deletedAt = nil
    draft.rinUserID = nil
    return draft
  }
}
