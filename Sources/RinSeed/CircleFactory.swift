import RinDomain
import RinStorage

/// Writes one owner's circles: the mandatory "Contacts" circle (holding the owner's Rin
/// connections), the prepopulated Family/Friends/Work, custom circles, the pattern groups'
/// circles with their removals, and a few deleted circles.
struct CircleFactory {
  let ctx: SeedContext
  let owner: UserProfile
  let book: ContactBook

  struct Written {
    let id: Int64
    let deleted: Bool
  }

  func write(groups: [PatternGroup], into sink: RowBuffer) -> [Written] {
    var rng = ctx.random(.circles, owner.id)
    var written: [Written] = []
    let rinContacts = book.indices { if case .rinUser = $0.role { true } else { false } }
    written.append(circle(.contacts, members: rinContacts, removals: [], sink, &rng))
    let fillers = book.indices { $0.role == .filler }
    for spec in CircleSpec.prepopulated {
      if let g = groups.firstIndex(where: { $0.circle.name == spec.name && $0.circle.kind == spec.kind }) {
        written.append(groupCircle(g, groups[g].circle, sink, &rng))
      } else {
        var plain = spec
        plain.deleted = rng.chance(0.02)
        written.append(
          circle(plain, members: sample(fillers, rng.int(0...15), &rng), removals: [], sink, &rng))
      }
    }
    for (g, group) in groups.enumerated() where group.circle.kind == "custom" {
      written.append(groupCircle(g, group.circle, sink, &rng))
    }
    var customCount = rng.weighted([(0, 30), (1, 30), (2, 20), (3, 10), (5, 7), (8, 3)])
    // Some users always own a deleted circle, so access requests on deleted circles exist.
    let forceDeleted = owner.id % 10 == 3
    if forceDeleted { customCount += 1 }
    for index in 0..<customCount {
      let (name, emoji) = rng.pick(CircleSpec.customNames)
      let deleted = forceDeleted && index == 0 || rng.chance(0.08)
      let spec = CircleSpec(name: name, emoji: emoji, kind: "custom", deleted: deleted)
      let members = sample(fillers, rng.int(1...25), &rng)
      let removals = rng.chance(0.1) ? sample(fillers, 1, &rng).filter { !members.contains($0) } : []
      written.append(circle(spec, members: members, removals: removals, sink, &rng))
    }
    return written
  }

  private func groupCircle(_ g: Int, _ spec: CircleSpec, _ sink: RowBuffer, _ rng: inout SeedRandom)
    -> Written
  {
    let members = book.indices { $0.role == .member(g) }
    let removed = book.indices { $0.role == .removed(g) }
    return circle(spec, members: members, removals: removed, sink, &rng)
  }

  private func circle(
    _ spec: CircleSpec, members: [Int], removals: [Int], _ sink: RowBuffer, _ rng: inout SeedRandom
  ) -> Written {
    let id = IDCounters.next(&sink.ids.circle)
    let createdAt =
      spec.kind == "custom" ? rng.instant(min(owner.createdAt, ctx.now)...ctx.now) : owner.createdAt
    let deletedAt: UTCInstant? = spec.deleted ? rng.instant(createdAt...ctx.now) : nil
    sink.insert(
      .circles,
      [
        .integer(id), .integer(owner.id), .text(spec.name), SQLValue(spec.emoji), .text(spec.kind),
        SQLValue(createdAt), SQLValue(deletedAt),
      ])
    for index in members.sorted() {
      let addedAt = rng.instant(max(createdAt, book.drafts[index].createdAt)...max(ctx.now, createdAt))
      sink.insert(.circleMembers, [.integer(id), .integer(book.ids[index]), SQLValue(addedAt)])
    }
    for index in removals.sorted() {
      sink.insert(
        .circleRemovals,
        [.integer(id), .integer(book.ids[index]), SQLValue(rng.instant(createdAt...max(ctx.now, createdAt)))])
    }
    return Written(id: id, deleted: spec.deleted)
  }

  /// Up to `count` distinct positions from `pool`.
  private func sample(_ pool: [Int], _ count: Int, _ rng: inout SeedRandom) -> [Int] {
    guard !pool.isEmpty, count > 0 else { return [] }
    var picked: [Int] = []
    for _ in 0..<min(count, pool.count) {
      let candidate = pool[rng.below(pool.count)]
      if !picked.contains(candidate) { picked.append(candidate) }
    }
    return picked
  }
}

extension ContactBook {
  /// Draft positions whose draft satisfies `test`, ascending.
  func indices(where test: (ContactDraft) -> Bool) -> [Int] {
    drafts.indices.filter { test(drafts[$0]) }
  }
}
