import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// One batch's circles, memberships, removals, stored suggestions and the normalized evidence
/// of every live contact, read with a fixed number of streamed queries. Phones parse with the
/// owner's `users.region` as default region; malformed phones and emails are counted and
/// otherwise ignored. A contact whose numbers were parsed before and did not change is not parsed
/// again, and a non-member's numbers that cannot carry an area code the owner's circles share are
/// not parsed (see `readPhones`).
struct CirclePatternsInputs {
  var circlesByUser: [UserID: [Int64]] = [:]
  var membersByCircle: [Int64: Set<ContactID>] = [:]
  var removalsByCircle: [Int64: Set<ContactID>] = [:]
  var evidence: [ContactID: ContactEvidence] = [:]
  var contactsByUser: [UserID: [ContactID]] = [:]
  var suggestionsByUser: [UserID: [ExistingCircleSuggestion]] = [:]
  /// Each live contact's digest as read (the sum of its rows' `digestTerm`s) and change stamp.
  var digests: [ContactID: Int64] = [:]
  var stamps: [ContactID: Int64] = [:]
  /// What the numbers parsed this time showed, to store with the digests (`digestsToStore`).
  var evidenceToStore: [(contactID: ContactID, userID: UserID, evidence: PhoneEvidence)] = []

  /// The inputs of `users`, some or all of the batch's users.
  static func read(
    _ batch: UserBatch, users ids: [UserID], freeMail: FreeMailDomains, thresholds: CirclePatternThresholds
  ) throws -> CirclePatternsInputs {
    let queries = CirclePatternsQueries(tx: batch.tx)
    var inputs = CirclePatternsInputs()
    inputs.circlesByUser = try queries.patternCircles(of: ids)
    try queries.forEachLiveCircleMember(of: ids) {
      inputs.membersByCircle[$0, default: []].insert($1)
    }
    try queries.forEachCircleRemoval(of: ids) {
      inputs.removalsByCircle[$0, default: []].insert($1)
    }
    try queries.forEachLiveContactFamilyName(of: ids) { row in
      guard inputs.evidence[row.contactID] == nil else { return }
      inputs.evidence[row.contactID] = ContactEvidence(
        contactID: row.contactID, familyName: FamilyName.normalized(row.value))
      inputs.contactsByUser[row.userID, default: []].append(row.contactID)
      inputs.digests[row.contactID, default: 0] &+= row.digestTerm
      inputs.stamps[row.contactID] = row.stamp
    }
    batch.counts.addRead(OwnerCounter.contacts, inputs.evidence.count)
    try inputs.readPhones(batch, users: ids, thresholds: thresholds)
    try inputs.readEmails(batch, users: ids, freeMail: freeMail)
    inputs.suggestionsByUser = try queries.circleSuggestions(of: ids)
    return inputs
  }

  /// A contact's numbers are taken from their evidence in `contact_states` when its fingerprint shows that
  /// nothing they were derived from changed (numbers, owner's region, libphonenumber). The others
  /// are parsed in two passes, because libphonenumber is most of this job's time and most numbers
  /// cannot matter: first the numbers of every circle member (members decide which area codes a
  /// circle shares), then, of the other contacts, those with a number that `AreaCodeScreen`
  /// cannot rule out for an area code one of the owner's circles shares. A contact's numbers are
  /// parsed all together, so that what is stored is the whole contact's evidence. So "invalid
  /// phone" counts the numbers the job parsed or recalled, not every number in the table
  /// (docs/JOBS.md).
  private mutating func readPhones(
    _ batch: UserBatch, users: [UserID], thresholds: CirclePatternThresholds
  ) throws {
    let queries = CirclePatternsQueries(tx: batch.tx)
    var regions: [UserID: String] = [:]
    for (user, stored) in try batch.tx.userRegions(of: users) {
      regions[user] = PhoneNormalizer.region(from: stored)
    }
    var read = 0
    var invalid = 0
    var numbersByContact: [ContactID: ContactNumbers] = [:]
    try queries.forEachLiveContactPhone(of: users) { row in
      guard evidence[row.contactID] != nil else { return }
      digests[row.contactID, default: 0] &+= row.digestTerm
      read += 1
      guard let raw = row.value else {
        invalid += 1
        return
      }
      numbersByContact[row.contactID, default: ContactNumbers(contactID: row.contactID, userID: row.userID)]
        .numbers.append(raw)
    }
    let stored = try queries.circlePhoneEvidence(of: users)
    let memberIDs = membersByCircle.values.reduce(into: Set<ContactID>()) { $0.formUnion($1) }
    var recalled = 0
    var members: [ContactNumbers] = []
    var others: [ContactNumbers] = []
    for var contact in numbersByContact.values {
      contact.fingerprint = PhoneEvidence.fingerprint(
        numbers: contact.numbers, region: regions[contact.userID] ?? PhoneNormalizer.unknownRegion,
        parser: PhoneNormalizer.metadataDigest)
      if let known = stored[contact.contactID], known.fingerprint == contact.fingerprint {
        add(known, to: contact.contactID)
        recalled += contact.numbers.count
        invalid += known.invalidNumbers
      } else if memberIDs.contains(contact.contactID) {
        members.append(contact)
      } else {
        others.append(contact)
      }
    }
    // Members' evidence first: the area codes their circles share decide which others to parse.
    var derived = parse(members, regions: regions)
    invalid += add(derived)
    var screens: [UserID: AreaCodeScreen] = [:]
    for (user, codes) in sharedAreaCodes(thresholds) {
      screens[user] = AreaCodeScreen(
        areaCodes: codes, defaultRegion: regions[user] ?? PhoneNormalizer.unknownRegion)
    }
    let wanted = others.filter { contact in
      screens[contact.userID].map { screen in contact.numbers.contains(where: screen.mayHave) } ?? false
    }
    let parsedOthers = parse(wanted, regions: regions)
    invalid += add(parsedOthers)
    derived += parsedOthers
    evidenceToStore = derived
    try queries.forgetStateOfDeletedContacts(of: users)
    batch.counts.addRead(CirclePatternsCounter.phones, read)
    batch.counts.addRead(
      CirclePatternsCounter.phonesParsed, (members + wanted).reduce(0) { $0 + $1.numbers.count })
    batch.counts.addRead(CirclePatternsCounter.phonesRecalled, recalled)
    batch.counts.addSkipped(CirclePatternsCounter.invalidPhone, invalid)
  }

  /// One contact's non-null numbers as typed, with the fingerprint of what they are parsed with.
  private struct ContactNumbers {
    var contactID: ContactID
    var userID: UserID
    var numbers: [String] = []
    var fingerprint: Int64 = 0
  }

  private mutating func add(_ found: PhoneEvidence, to contactID: ContactID) {
    if found.validNumbers > 0 { evidence[contactID]?.hasPhone = true }
    evidence[contactID]?.areaCodes.formUnion(found.areaCodes)
  }

  /// Adds what newly parsed numbers show; returns how many were invalid.
  private mutating func add(_ parsed: [(contactID: ContactID, userID: UserID, evidence: PhoneEvidence)])
    -> Int
  {
    for (contactID, _, found) in parsed { add(found, to: contactID) }
    return parsed.reduce(0) { $0 + $1.evidence.invalidNumbers }
  }

  /// Parses the contacts' numbers on every core; what each contact's numbers show.
  private func parse(_ contacts: [ContactNumbers], regions: [UserID: String]) -> [(
    contactID: ContactID, userID: UserID, evidence: PhoneEvidence
  )] {
    let phones = contacts.flatMap { contact in
      let region = regions[contact.userID] ?? PhoneNormalizer.unknownRegion
      return contact.numbers.map { (raw: $0, defaultRegion: region) }
    }
    var parsed = PhoneNormalizer.parse(phones)[...]
    return contacts.map { contact in
      var found = PhoneEvidence(
        fingerprint: contact.fingerprint, validNumbers: 0, invalidNumbers: 0, areaCodes: [])
      for phone in parsed.prefix(contact.numbers.count) {
        guard let phone else {
          found.invalidNumbers += 1
          continue
        }
        found.validNumbers += 1
        if let area = phone.geographicAreaCode { found.areaCodes.insert(area) }
      }
      parsed = parsed.dropFirst(contact.numbers.count)
      return (contact.contactID, contact.userID, found)
    }
  }

  /// Per user, the area codes that at least one of their circles' members share enough to
  /// justify a group: the only codes a non-member's number is worth parsing for.
  private func sharedAreaCodes(_ thresholds: CirclePatternThresholds) -> [UserID: Set<String>] {
    var codes: [UserID: Set<String>] = [:]
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

  private mutating func readEmails(_ batch: UserBatch, users: [UserID], freeMail: FreeMailDomains) throws {
    var read = 0
    var invalid = 0
    // A batch's addresses share few hosts: each is checked once (well formed, registrable
    // domain, free mail).
    var hosts: [String: String?] = [:]
    var freeMailHosts: [String: Bool] = [:]
    try CirclePatternsQueries(tx: batch.tx).forEachLiveContactEmail(of: users) { row in
      guard evidence[row.contactID] != nil else { return }
      digests[row.contactID, default: 0] &+= row.digestTerm
      read += 1
      guard let raw = row.value, let address = EmailAddress.parse(raw, hosts: &hosts) else {
        invalid += 1
        return
      }
      evidence[row.contactID]?.hasEmail = true
      let free =
        freeMailHosts[address.host]
        ?? {
          let free = freeMail.contains(address)
          freeMailHosts[address.host] = free
          return free
        }()
      if !free {
        evidence[row.contactID]?.emailDomains.insert(address.registrableDomain)
      }
    }
    batch.counts.addRead(CirclePatternsCounter.emails, read)
    batch.counts.addSkipped(CirclePatternsCounter.invalidEmail, invalid)
  }

  /// The digests to store of the examined owners' contacts (`storesDigest`).
  func digestsToStore(
    reasons: [UserID: OwnerExamination], lastExaminedAt: [UserID: UTCInstant]
  ) -> [ContactDigest] {
    reasons.sorted { $0.key < $1.key }.flatMap { user, reason in
      (contactsByUser[user] ?? []).compactMap { contact in
        reason.storesDigest(ofContactStamped: stamps[contact] ?? 0, lastExaminedAt: lastExaminedAt[user])
          ? ContactDigest(contactID: contact, userID: user, digest: digests[contact] ?? 0) : nil
      }
    }
  }

  func contacts(of user: UserID) -> [ContactEvidence] {
    (contactsByUser[user] ?? []).compactMap { evidence[$0] }
  }
}
