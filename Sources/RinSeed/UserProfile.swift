import Foundation
import RinDomain

/// Everything about one user that other users' data may refer to (their phone number, invite
/// codes, whether they exist yet), computed from the seed and the id alone, so any user's
/// generator can look up any other user without a shared table in memory.
struct UserProfile {
  let id: Int64
  let given: String
  let family: String
  let displayName: String?
  /// As stored; may be missing or malformed.
  let region: String?
  /// The dialling plan the user's own and local contacts' numbers come from.
  let plan: PhonePlan
  let timezone: String?
  let phone: PhoneNumber?
  let phoneVerified: Bool
  let createdAt: UTCInstant
  let deletedAt: UTCInstant?
  let contactCount: Int
  let inviteCodes: [String]

  var isLive: Bool { deletedAt == nil }

  init(id: Int64, _ ctx: SeedContext) {
    var rng = ctx.random(.profile, id)
    self.id = id
    let given = rng.pick(NameCatalogue.givenNames)
    let family = rng.pick(NameCatalogue.familyNames)
    self.given = given
    self.family = family
    displayName = rng.chance(0.02) ? nil : "\(given) \(family)"
    let home = rng.weighted(RegionCatalogue.regionWeights)
    region = rng.chance(0.03) ? rng.pick(RegionCatalogue.oddRegions) : home
    plan = PhoneCatalogue.plan(for: home)
    timezone = RegionCatalogue.zone(region: home, userID: id, &rng)
    if rng.chance(0.93) {
      phone = PhoneFactory.number(plan, mobile: rng.chance(0.8), &rng)
      phoneVerified = rng.chance(0.8)
    } else {
      phone = nil
      phoneVerified = false
    }
    let isNew = id % 20 == 7 || rng.chance(0.04)
    var createdAt =
      isNew
      ? ctx.now.advanced(by: -rng.int64(SeedContext.hour...(6 * SeedContext.day + 12 * SeedContext.hour)))
      : ctx.now.advanced(by: -rng.int64((8 * SeedContext.day)...(1_200 * SeedContext.day)))
    var deletedAt = id % 50 == 29 || rng.chance(0.02) ? rng.instant(createdAt...ctx.now) : nil
    if ctx.signUps && id >= ctx.firstUser {
      // A sign-up of the day: the same draws as any user (its names, phone and book are what
      // the seeder gives that id), created just now, and live.
      createdAt = ctx.now.advanced(by: -rng.int64(0...SeedContext.signUpWindow))
      deletedAt = nil
    }
    self.createdAt = createdAt
    self.deletedAt = deletedAt
    contactCount = Self.contactCount(id: id, isNew: isNew, &rng)
    let links = id % 50 == 1 ? max(1, rng.int(1...3)) : rng.weighted([(0, 30), (1, 45), (2, 15), (3, 10)])
    inviteCodes = (0..<links).map { InviteCode.make(seed: ctx.seed, user: id, index: $0) }
  }

  /// Log-normal around a median of 250 with a small population of power users whose books
  /// run past 5,000; capped at 8,000. A few accounts are empty (just signed up).
  private static func contactCount(id: Int64, isNew: Bool, _ rng: inout SeedRandom) -> Int {
    if id % 37 == 6 { return 0 }
    let power = rng.chance(0.003)
    let median = power ? 3_000.0 : 250.0
    let sigma = power ? 0.5 : 0.55
    let drawn = median * exp(sigma * rng.normal())
    let count = Int(drawn.rounded())
    return min(8_000, max(isNew ? 0 : 5, count))
  }

  /// The profile of another user, or nil when that id is outside the dataset.
  static func of(_ id: Int64, _ ctx: SeedContext) -> UserProfile? {
    id >= 1 && id <= Int64(ctx.users) ? UserProfile(id: id, ctx) : nil
  }
}
