import RinDomain
import RinStorage

/// The app-written prompt and score-view state, spread across the invite-prompt suppression
/// rules (fewer than 3 prompts or not; prompt and dismissal inside or outside 7 days).
enum UserStateFactory {
  static func write(owner: UserProfile, _ ctx: SeedContext, into sink: RowBuffer) {
    var rng = ctx.random(.state, owner.id)
    guard rng.chance(0.88) || owner.id % 10 < 3 else { return }
    let viewed: UTCInstant? = rng.chance(0.3) ? nil : ctx.past(&rng, days: 20, floor: owner.createdAt)
    let shown = rng.weighted([(0, 40), (1, 20), (2, 15), (3, 15), (4, 5), (7, 5)])
    var prompted: UTCInstant?
    var dismissed: UTCInstant?
    if shown > 0 {
      prompted = ctx.past(&rng, days: rng.chance(0.5) ? 7 : 60, floor: owner.createdAt)
      if let at = prompted, rng.chance(0.5) {
        dismissed = min(ctx.now, at.advanced(by: rng.int64(5...(2 * SeedContext.day))))
      }
    }
    // A job wrote these on an earlier run: a score card that is still showing or has expired.
    let changed: UTCInstant? = rng.chance(0.2) ? ctx.past(&rng, days: 4, floor: owner.createdAt) : nil
    sink.insert(
      .userState,
      [
        .integer(owner.id), SQLValue(viewed), .integer(Int64(shown)), SQLValue(prompted), SQLValue(dismissed),
        SQLValue(changed), SQLValue(changed.map { $0.advanced(by: 48 * SeedContext.hour) }),
      ])
  }
}
