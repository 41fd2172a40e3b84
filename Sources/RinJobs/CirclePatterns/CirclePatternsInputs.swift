import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// One batch's circles, memberships, removals, stored suggestions and the normalized evidence
/// of every live contact, read with a fixed number of streamed queries. Phones parse with the
/// owner's `users.region` as default region; malformed phones and emails are counted and
/// otherwise ignored. A non-member's number that cannot carry an area code the owner's circles
/// share is not parsed (see `readPhones`).
struct CirclePatternsInputs {
  var circlesByUser: [Int64: [Int64]] = [:]
  var membersByCircle: [Int64: Set<Int64>] = [:]
  var removalsByCircle: [Int64: Set<Int64>] = [:]
  var evidence: [Int64: ContactEvidence] = [:]
  var contactsByUser: [Int64: [Int64]] = [:]
  var suggestionsByUser: [Int64: [ExistingCircleSuggestion]] = [:]

  static func read(
    _ batch: UserBatch, freeMail: FreeMailDomains, thresholds: CirclePatternThresholds
  ) throws -> CirclePatternsInputs {
    let tx = batch.tx
    let ids = batch.userIDs
    var inputs = CirclePatternsInputs()
    inputs.circlesByUser = try tx.patternCircles(of: ids)
    try tx.forEachLiveCircleMember(of: ids) { inputs.membersByCircle[$0, default: []].insert($1) }
    try tx.forEachCircleRemoval(of: ids) { inputs.removalsByCircle[$0, default: []].insert($1) }
    try tx.forEachLiveContactFamilyName(of: ids) { row in
      guard inputs.evidence[row.contactID] == nil else { return }
      inputs.evidence[row.contactID] = ContactEvidence(
        contactID: row.contactID, familyName: FamilyName.normalized(row.value))
      inputs.contactsByUser[row.userID, default: []].append(row.contactID)
    }
    batch.counts.addRead("contacts", inputs.evidence.count)
    try inputs.readPhones(batch, thresholds: thresholds)
    try inputs.readEmails(batch, freeMail: freeMail)
    inputs.suggestionsByUser = try tx.circleSuggestions(of: ids)
    batch.counts.addRead("users", ids.count)
    return inputs
  }

  /// Phones are parsed in two passes, because libphonenumber is most of this job's time and most
  /// numbers cannot matter: first every number of a circle member (members decide which area
  /// codes a circle shares), then, of the other contacts, only numbers that `AreaCodeScreen`
  /// cannot rule out for an area code one of the owner's circles shares. So "invalid phone"
  /// counts the numbers the job parsed, not every number in the table (docs/JOBS.md).
  private mutating func readPhones(_ batch: UserBatch, thresholds: CirclePatternThresholds) throws {
    var regions: [Int64: String] = [:]
    for (user, stored) in try batch.tx.userRegions(of: batch.userIDs) {
      regions[user] = PhoneNormalizer.region(from: stored)
    }
    var read = 0
    var invalid = 0
    var members: [PhoneRow] = []
    var others: [PhoneRow] = []
    let memberIDs = membersByCircle.values.reduce(into: Set<Int64>()) { $0.formUnion($1) }
    try batch.tx.forEachLiveContactPhone(of: batch.userIDs) { row in
      guard evidence[row.contactID] != nil else { return }
      read += 1
      guard let raw = row.value else {
        invalid += 1
        return
      }
      let phone = PhoneRow(
        contactID: row.contactID, userID: row.userID, raw: raw,
        region: regions[row.userID] ?? PhoneNormalizer.unknownRegion)
      if memberIDs.contains(row.contactID) { members.append(phone) } else { others.append(phone) }
    }
    invalid += addParsed(members)
    var screens: [Int64: AreaCodeScreen] = [:]
    for (user, codes) in sharedAreaCodes(thresholds) {
      screens[user] = AreaCodeScreen(
        areaCodes: codes, defaultRegion: regions[user] ?? PhoneNormalizer.unknownRegion)
    }
    let wanted = others.filter { screens[$0.userID]?.mayHave($0.raw) ?? false }
    invalid += addParsed(wanted)
    batch.counts.addRead("phones", read)
    batch.counts.addRead("phones parsed", members.count + wanted.count)
    batch.counts.addSkipped("invalid phone", invalid)
  }

  private struct PhoneRow {
    var contactID: Int64
    var userID: Int64
    var raw: String
    var region: String
  }

  /// Parses on every core and adds what the numbers show to their contacts' evidence; returns how
  /// many were invalid.
  private mutating func addParsed(_ phones: [PhoneRow]) -> Int {
    var invalid = 0
    let parsed = PhoneNormalizer.parse(phones.map { (raw: $0.raw, defaultRegion: $0.region) })
    for (row, phone) in zip(phones, parsed) {
      guard let phone else {
        invalid += 1
        continue
      }
      evidence[row.contactID]?.hasPhone = true
      if let area = phone.geographicAreaCode { evidence[row.contactID]?.areaCodes.insert(area) }
    }
    return invalid
  }

  /// Per user, the area codes that at least one of their circles' members share enough to
  /// justify a group: the only codes a non-member's number is worth parsing for.
  private func sharedAreaCodes(_ thresholds: CirclePatternThresholds) -> [Int64: Set<String>] {
    var codes: [Int64: Set<String>] = [:]
    for (user, circles) in circlesByUser {
      for circle in circles {
        let members = (membersByCircle[circle] ?? []).compactMap { evidence[$0] }
        guard members.count >= thresholds.minMembers else { continue }
        for shared in thresholds.sharedValues(of: .areaCode, among: members) {
          codes[user, default: []].insert(shared.value)
        }
      }
    }
    return codes
  }

  private mutating func readEmails(_ batch: UserBatch, freeMail: FreeMailDomains) throws {
    var read = 0
    var invalid = 0
    try batch.tx.forEachLiveContactEmail(of: batch.userIDs) { row in
      guard evidence[row.contactID] != nil else { return }
      read += 1
      guard let raw = row.value, let address = EmailAddress.parse(raw) else {
        invalid += 1
        return
      }
      evidence[row.contactID]?.hasEmail = true
      if !freeMail.contains(address) {
        evidence[row.contactID]?.emailDomains.insert(address.registrableDomain)
      }
    }
    batch.counts.addRead("emails", read)
    batch.counts.addSkipped("invalid email", invalid)
  }

  func contacts(of user: Int64) -> [ContactEvidence] {
    (contactsByUser[user] ?? []).compactMap { evidence[$0] }
  }
}
