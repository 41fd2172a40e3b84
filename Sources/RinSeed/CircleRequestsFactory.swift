import RinDomain
import RinStorage

/// Other users asking to join the owner's circles, live and deleted (a request on a deleted
/// circle must not count towards the Circles badge).
enum CircleRequestsFactory {
  static func write(
    owner: UserProfile, circles: [CircleFactory.Written], _ ctx: SeedContext, into sink: RowBuffer
  ) {
    guard ctx.users > 1, circles.count > 1 else { return }
    var rng = ctx.random(.requests, owner.id)
    var targets: [CircleFactory.Written] = []
    if owner.id % 10 == 3, let deleted = circles.first(where: \.deleted) { targets.append(deleted) }
    if rng.chance(0.35) {
      for _ in 0..<rng.int(1...3) { targets.append(circles[1 + rng.below(circles.count - 1)]) }
    }
    for (position, circle) in targets.enumerated() {
      var requester = Int64(rng.int(1...ctx.users))
      if requester == owner.id { requester = owner.id % Int64(ctx.users) + 1 }
      let status =
        position == 0 && circle.deleted
        ? "pending"
        : rng.weighted([("pending", 50), ("approved", 30), ("denied", 20)])
      sink.insert(
        .accessRequests,
        [
          .integer(IDCounters.next(&sink.ids.accessRequest)), .integer(circle.id), .integer(requester),
          .text(status), SQLValue(ctx.past(&rng, days: 45, floor: owner.createdAt)),
        ])
    }
  }
}
