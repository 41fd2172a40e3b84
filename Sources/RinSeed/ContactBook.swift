/// One owner's address book: drafts in generation order, with the ids they were written under.
struct ContactBook {
  let drafts: [ContactDraft]
  /// `ids[i]` is the id of `drafts[i]`; ids follow a shuffled order, as a real import would.
  let ids: [Int64]

  static func build(owner: UserProfile, groups: [PatternGroup], _ ctx: SeedContext) -> [ContactDraft] {
    guard owner.contactCount > 0 else { return [] }
    var rng = ctx.random(.contacts, owner.id)
    let factory = ContactFactory(ctx: ctx, owner: owner)
    var drafts: [ContactDraft] = []
    drafts.reserveCapacity(owner.contactCount + 16)
    for (g, group) in groups.enumerated() { drafts += factory.drafts(for: group, index: g, &rng) }
    drafts += network(owner, factory, ctx, &rng)
    let duplicates = owner.contactCount >= 20 ? rng.int(0...min(6, owner.contactCount / 25)) : 0
    while drafts.count < owner.contactCount - duplicates { drafts.append(factory.filler(&rng)) }
    for _ in 0..<duplicates {
      let index = rng.below(drafts.count)
      if drafts[index].role == .filler && drafts[index].isLive {
        drafts.append(factory.duplicate(of: index, drafts[index], &rng))
      }
    }
    return drafts
  }

  /// Mutual friends, people the owner has that do not have the owner, and the owner's own card.
  private static func network(
    _ owner: UserProfile, _ factory: ContactFactory, _ ctx: SeedContext, _ rng: inout SeedRandom
  ) -> [ContactDraft] {
    var drafts: [ContactDraft] = []
    for other in SocialGraph.mutualFriends(of: owner.id, users: ctx.users)
    where SocialGraph.linked(ctx.seed, owner.id, other) {
      guard let profile = UserProfile.of(other, ctx), let phone = profile.phone else { continue }
      let enriched =
        owner.phoneVerified && profile.phoneVerified && SocialGraph.enriched(ctx.seed, owner.id, other)
      drafts.append(factory.rinUser(profile, phone: phone, enriched: enriched, &rng))
    }
    let oneWay = rng.int(0...2) + owner.contactCount / 40
    for _ in 0..<oneWay {
      let other = Int64(rng.int(1...ctx.users))
      guard other != owner.id, let profile = UserProfile.of(other, ctx), let phone = profile.phone else {
        continue
      }
      drafts.append(
        factory.rinUser(profile, phone: phone, enriched: profile.phoneVerified && rng.chance(0.4), &rng))
    }
    if let phone = owner.phone, rng.chance(0.03) { drafts.append(factory.ownEntry(phone, &rng)) }
    return drafts
  }

  /// Shuffles the id order and writes the contacts with their phones and emails.
  static func write(
    _ drafts: [ContactDraft], owner: UserProfile, _ ctx: SeedContext, into sink: RowBuffer
  ) -> ContactBook {
    var rng = ctx.random(.order, owner.id)
    var order = Array(drafts.indices)
    rng.shuffle(&order)
    var ids = [Int64](repeating: 0, count: drafts.count)
    for index in order {
      let id = IDCounters.next(&sink.ids.contact)
      ids[index] = id
      drafts[index].write(id: id, owner: owner.id, into: sink)
    }
    return ContactBook(drafts: drafts, ids: ids)
  }
}
