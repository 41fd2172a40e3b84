import RinDomain

/// Makes the contacts of one owner's address book.
struct ContactFactory {
  let ctx: SeedContext
  let owner: UserProfile
  /// Companies local to the owner: most colleagues share the owner's country.
  let localCompanies: [Company]

  init(ctx: SeedContext, owner: UserProfile) {
    self.ctx = ctx
    self.owner = owner
    localCompanies = CompanyCatalogue.companies(in: owner.region)
  }

  static let editedFields = [
    "company", "title", "birthday", "company,title", "birthday,company", "title,company,birthday",
  ]

  /// An ordinary contact: a person with some phones and emails, maybe a job and a birthday.
  func filler(_ rng: inout SeedRandom) -> ContactDraft {
    var draft = ContactDraft()
    let gi = rng.below(NameCatalogue.givenNames.count)
    let fi = rng.below(NameCatalogue.familyNames.count)
    nameDraft(&draft, gi: gi, fi: fi, &rng)
    var company: Company?
    if rng.chance(0.35) {
      let pick = rng.chance(0.75) ? rng.pick(localCompanies) : rng.pick(CompanyCatalogue.companies)
      company = pick
      draft.company = pick.name
      draft.title = rng.chance(0.7) ? rng.pick(CompanyCatalogue.titles) : nil
    }
    let phoneCount = rng.weighted([(0, 15), (1, 62), (2, 18), (3, 5)])
    for _ in 0..<phoneCount { draft.phones.append((randomPhone(&rng), rng.pick(PhoneCatalogue.labels))) }
    let emailCount = rng.weighted([(0, 40), (1, 45), (2, 15)])
    for index in 0..<emailCount {
      let work = index == 0 ? company : nil
      draft.emails.append((email(gi: gi, fi: fi, company: work, &rng), rng.pick(Self.emailLabels)))
    }
    finish(&draft, &rng)
    return draft
  }

  static let emailLabels: [String?] = ["home", "work", "other", nil, "iCloud"]

  func nameDraft(_ draft: inout ContactDraft, gi: Int, fi: Int, _ rng: inout SeedRandom) {
    if rng.chance(0.01) {
      let odd = rng.pick(NameCatalogue.oddNames)
      (draft.given, draft.family, draft.display) = (odd.given, odd.family, odd.display)
      return
    }
    let given = NameCatalogue.givenNames[gi]
    let family = NameCatalogue.familyNames[fi]
    draft.given = rng.chance(0.03) ? nil : given
    draft.family = family
    draft.display =
      switch rng.below(10) {
      case 0..<6: "\(given) \(family)"
      case 6: "\(family), \(given)"
      case 7: given
      default: nil
      }
  }

  /// A number from the owner's country most of the time, otherwise from abroad.
  func randomPhone(_ rng: inout SeedRandom) -> String {
    if rng.chance(0.015) { return rng.pick(PhoneCatalogue.invalid) }
    let plan = rng.chance(0.78) ? owner.plan : PhoneCatalogue.plan(for: rng.pick(PhoneCatalogue.regions))
    let number = PhoneFactory.number(plan, mobile: rng.chance(0.6), &rng)
    return PhoneFactory.raw(number, ownerRegion: owner.region, &rng)
  }

  /// A work address at `company` (sometimes on its mail subdomain), else a free-mail address.
  func email(gi: Int, fi: Int, company: Company?, _ rng: inout SeedRandom) -> String {
    if rng.chance(0.015) { return rng.pick(CompanyCatalogue.invalidEmails) }
    let local = CompanyCatalogue.localPart(
      given: NameCatalogue.givenASCII[gi], family: NameCatalogue.familyASCII[fi], &rng)
    let domain = company.map { workDomain($0, &rng) } ?? rng.pick(CompanyCatalogue.freeMail)
    let address = "\(local)@\(domain)"
    return rng.chance(0.03) ? address.uppercased() : address
  }

  func workDomain(_ company: Company, _ rng: inout SeedRandom) -> String {
    company.domains.count > 1 && rng.chance(0.35)
      ? rng.pick(Array(company.domains.dropFirst())) : company.domains[0]
  }

  /// Birthday, source, hand edits and the timeline: imported with the account, added later,
  /// added in the last 30 days (churn), or deleted.
  func finish(_ draft: inout ContactDraft, _ rng: inout SeedRandom) {
    draft.birthday = BirthdayFactory.make(ctx, &rng)
    draft.source = rng.weighted([("device", 85), ("manual", 12), ("invite", 3)])
    draft.editedFields = rng.chance(0.04) ? rng.pick(Self.editedFields) : nil
    let start = owner.createdAt
    let roll = rng.unit()
    if roll < 0.06 && start.advanced(by: SeedContext.day) <= ctx.now {
      draft.createdAt = rng.instant(
        max(start.advanced(by: SeedContext.day), ctx.now.advanced(by: -30 * SeedContext.day))...ctx.now)
    } else if roll < 0.75 || draft.source == "device" && roll < 0.85 {
      draft.createdAt = min(ctx.now, start.advanced(by: rng.int64(0...(2 * SeedContext.hour))))
    } else {
      draft.createdAt = rng.instant(min(start, ctx.now)...ctx.now)
    }
    draft.updatedAt = rng.chance(0.5) ? draft.createdAt : rng.instant(draft.createdAt...ctx.now)
    if rng.chance(0.04) {
      let recent = rng.chance(0.5)
      let from = recent ? max(draft.createdAt, ctx.now.advanced(by: -30 * SeedContext.day)) : draft.createdAt
      draft.deletedAt = rng.instant(from...ctx.now)
    }
  }
}
