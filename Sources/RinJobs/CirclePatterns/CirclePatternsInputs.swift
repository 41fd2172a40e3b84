import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// One batch's circles, memberships, removals, stored suggestions and the normalized evidence
/// of every live contact, read with a fixed number of streamed queries. Phones parse with the
/// owner's `users.region` as default region; malformed phones and emails are counted and
/// otherwise ignored.
struct CirclePatternsInputs {
  var circlesByUser: [Int64: [Int64]] = [:]
  var membersByCircle: [Int64: Set<Int64>] = [:]
  var removalsByCircle: [Int64: Set<Int64>] = [:]
  var evidence: [Int64: ContactEvidence] = [:]
  var contactsByUser: [Int64: [Int64]] = [:]
  var suggestionsByUser: [Int64: [ExistingCircleSuggestion]] = [:]

  static func read(_ batch: UserBatch, freeMail: FreeMailDomains) throws -> CirclePatternsInputs {
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
    try inputs.readPhones(batch)
    try inputs.readEmails(batch, freeMail: freeMail)
    inputs.suggestionsByUser = try tx.circleSuggestions(of: ids)
    batch.counts.addRead("users", ids.count)
    return inputs
  }

  private mutating func readPhones(_ batch: UserBatch) throws {
    var regions: [Int64: String] = [:]
    for (user, stored) in try batch.tx.userRegions(of: batch.userIDs) {
      regions[user] = PhoneNormalizer.region(from: stored)
    }
    var read = 0
    var invalid = 0
    // The batch's numbers are gathered first and parsed on every core (libphonenumber is most
    // of this job's time).
    var contacts: [Int64] = []
    var phones: [(raw: String, defaultRegion: String)] = []
    try batch.tx.forEachLiveContactPhone(of: batch.userIDs) { row in
      guard evidence[row.contactID] != nil else { return }
      read += 1
      guard let raw = row.value else {
        invalid += 1
        return
      }
      contacts.append(row.contactID)
      phones.append((raw, regions[row.userID] ?? PhoneNormalizer.unknownRegion))
    }
    for (contact, parsed) in zip(contacts, PhoneNormalizer.parse(phones)) {
      guard let phone = parsed else {
        invalid += 1
        continue
      }
      evidence[contact]?.hasPhone = true
      if let area = phone.geographicAreaCode { evidence[contact]?.areaCodes.insert(area) }
    }
    batch.counts.addRead("phones", read)
    batch.counts.addSkipped("invalid phone", invalid)
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
