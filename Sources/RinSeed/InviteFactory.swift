import RinDomain
import RinStorage

/// Invite links, shares, raw clicks over the last 30 days (with clicks exactly on and one
/// second either side of the 7-day attribution boundary) and attributions of invited users.
enum InviteFactory {
  static let channels = ["messages", "whatsapp", "telegram", "email", "copy", "airdrop", "other"]

  static func write(owner: UserProfile, _ ctx: SeedContext, into sink: RowBuffer) {
    var rng = ctx.random(.invites, owner.id)
    for (position, code) in owner.inviteCodes.enumerated() {
      let createdAt = rng.instant(min(owner.createdAt, ctx.now)...ctx.now)
      sink.insert(.inviteLinks, [.text(code), .integer(owner.id), SQLValue(createdAt)])
      var clicks = (0..<rng.int(0...8)).map { _ in ctx.past(&rng, days: 30) }
      if position == 0 && owner.id % 50 == 1 {
        let boundary = ctx.now.advanced(by: -7 * SeedContext.day)
        clicks += [
          boundary.advanced(by: -1), boundary, boundary.advanced(by: 1),
          ctx.now.advanced(by: -30 * SeedContext.day),
          ctx.now,
        ]
      }
      for clickedAt in clicks {
        sink.insert(
          .inviteClicks,
          [
            .integer(IDCounters.next(&sink.ids.inviteClick)), .text(code), .text(hex(rng.next())),
            SQLValue(clickedAt),
          ])
      }
    }
    for _ in 0..<rng.weighted([(0, 45), (1, 25), (2, 15), (4, 10), (6, 5)]) {
      let sharedAt =
        rng.chance(0.35) ? ctx.past(&rng, days: 14) : ctx.past(&rng, days: 400, floor: owner.createdAt)
      sink.insert(
        .inviteShares,
        [
          .integer(IDCounters.next(&sink.ids.inviteShare)), .integer(owner.id), .text(rng.pick(channels)),
          SQLValue(sharedAt),
        ])
    }
    attribution(owner, ctx, sink, &rng)
  }

  /// A quarter of users arrived through an earlier user's link (user 2 of every 50 always did).
  private static func attribution(
    _ owner: UserProfile, _ ctx: SeedContext, _ sink: RowBuffer, _ rng: inout SeedRandom
  ) {
    guard owner.id > 1 else { return }
    var inviter: UserProfile?
    if owner.id % 50 == 2 {
      inviter = UserProfile.of(owner.id - 1, ctx)
    } else if rng.chance(0.25) {
      for _ in 0..<4 where inviter == nil {
        let candidate = UserProfile.of(Int64(rng.int(1...Int(owner.id - 1))), ctx)
        if let candidate, !candidate.inviteCodes.isEmpty { inviter = candidate }
      }
    }
    guard let inviter, !inviter.inviteCodes.isEmpty else { return }
    let installedAt = owner.createdAt
    let clickedAt = installedAt.advanced(by: -rng.int64(60...(6 * SeedContext.day)))
    let onboardedAt: UTCInstant? =
      rng.chance(0.7) ? min(ctx.now, installedAt.advanced(by: rng.int64(600...(2 * SeedContext.day)))) : nil
    sink.insert(
      .attributions,
      [
        .integer(owner.id), .text(rng.pick(inviter.inviteCodes)), .integer(inviter.id), SQLValue(clickedAt),
        SQLValue(installedAt), SQLValue(onboardedAt),
      ])
  }

  /// A device fingerprint as the click service stores it: 16 lower-case hex digits.
  static func hex(_ value: UInt64) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }
}
