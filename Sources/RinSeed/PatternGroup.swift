/// A set of contacts sharing one trait that circle-patterns detects, planted in one circle,
/// plus live non-members with the same trait (the suggestions it should find), some the user
/// already removed from the circle, and a deleted one (which must never be suggested).
struct PatternGroup {
  enum Trait {
    case emailDomain(Company)
    /// A geographic area code of the owner's own country (national formats then parse).
    case areaCode(NumberBlock)
    case familyName((name: String, folded: String))
  }

  let trait: Trait
  /// Members that share the trait; `extras` are members that do not, kept below the job's
  /// share threshold (60 % for domains and area codes, 50 % for family names).
  let members: Int
  let extras: Int
  let candidates: Int
  let removed: Int
  let deleted: Int
  let circle: CircleSpec

  /// Plans up to one group per trait for an owner with enough contacts to host them.
  static func plan(owner: UserProfile, _ rng: inout SeedRandom) -> [PatternGroup] {
    guard owner.contactCount >= 40 else { return [] }
    var groups: [PatternGroup] = []
    if rng.chance(0.8) {
      let company = rng.pick(CompanyCatalogue.companies(in: owner.region))
      let work = rng.chance(0.5)
      let circle =
        work ? CircleSpec.work : CircleSpec(name: "\(company.name) team", emoji: "🏢", kind: "custom")
      groups.append(make(.emailDomain(company), circle: circle, &rng))
    }
    if rng.chance(0.75) {
      let block = rng.pick(owner.plan.geographic)
      let circle =
        rng.chance(0.5) ? CircleSpec.friends : CircleSpec(name: "Local crew", emoji: "📍", kind: "custom")
      groups.append(make(.areaCode(block), circle: circle, &rng))
    }
    if rng.chance(0.8) {
      groups.append(make(.familyName(rng.pick(NameCatalogue.familySurnames)), circle: .family, &rng))
    }
    return groups
  }

  private static func make(_ trait: Trait, circle: CircleSpec, _ rng: inout SeedRandom) -> PatternGroup {
    let members = rng.int(3...9)
    var spec = circle
    // A group in a deleted custom circle: the job must ignore it.
    if spec.kind == "custom" && rng.chance(0.1) { spec.deleted = true }
    return PatternGroup(
      trait: trait, members: members, extras: rng.int(0...(members / 2)), candidates: rng.int(3...6),
      removed: rng.int(0...2), deleted: rng.int(0...1), circle: spec)
  }

  var contactCount: Int { members + extras + candidates + removed + deleted }
}

/// A circle as planned, before it gets an id.
struct CircleSpec {
  var name: String
  var emoji: String?
  var kind: String
  var deleted = false

  static let contacts = CircleSpec(name: "Contacts", emoji: "👥", kind: "mandatory")
  static let family = CircleSpec(name: "Family", emoji: "👨‍👩‍👧‍👦", kind: "prepopulated")
  static let friends = CircleSpec(name: "Friends", emoji: "🫶", kind: "prepopulated")
  static let work = CircleSpec(name: "Work", emoji: "💼", kind: "prepopulated")
  static let prepopulated = [family, friends, work]

  static let customNames: [(String, String?)] = [
    ("Book Club", "📚"), ("Climbing", "🧗"), ("Neighbours", "🏡"), ("Band", "🎸"), ("Uni friends", "🎓"),
    ("Football ⚽ Sundays", nil), ("Startup", "🚀"), ("Wedding 2026", "💍"), ("Parents at school", "🏫"),
    ("Investors", "💰"), ("Running", "🏃"), ("Old colleagues", nil), ("Très proches", "❤️"), ("家族", "🏠"),
  ]
}
