import RinDomain
import RinRuntime
import RinStorage

/// Writes one batch's enrichments inside its transaction: the Rin-network links, the provider
/// values from the cache, and one outbox row per user with something new.
struct EnrichmentApplier {
  let provider: (name: String, minLikelihood: Int)?
  let now: UTCInstant
  let runID: RunID

  private struct RowKey: Hashable {
    var contact: ContactID
    var field: String
    var source: String
  }

  /// What `apply` did, per owner.
  struct Applied {
    /// The earliest time a checked contact of the owner's is due again.
    var dueAt: [UserID: UTCInstant]
    /// The checks made, for the job to store with the contacts' digests.
    var checks: [(contactID: ContactID, userID: UserID, check: EnrichmentCheck)]
    /// The owners with a contact whose enrichment or Rin-user link was written.
    var written: Set<UserID>
  }

  /// Writes the examined owners' enrichments.
  func apply(_ batch: UserBatch, _ prepared: PreparedBatch) throws -> Applied {
    let tx = batch.tx
    var stored: [RowKey: (value: String?, confidence: Double?)] = [:]
    // Only the contacts to check: an unchanged contact's rows are not compared.
    for row in try EnrichmentQueries(tx: tx).storedEnrichments(ofContacts: prepared.contacts.map(\.row.id)) {
      stored[RowKey(contact: row.contactID, field: row.field, source: row.source)] = (
        row.value, row.confidence
      )
    }
    var enriched: [UserID: Set<ContactID>] = [:]
    var written: Set<UserID> = []
    // Written together once every value of the batch is decided: a few statements, not one each.
    var writes: [EnrichmentUpsert] = []
    func put(
      _ contact: EnrichmentContactRow, _ field: EnrichmentField, _ source: String, _ value: EnrichmentValue
    )
      throws
    {
      let key = RowKey(contact: contact.id, field: field.rawValue, source: source)
      let write = EnrichmentWrite.decide(value, stored: stored[key])
      guard write != .none else { return }
      written.insert(contact.userID)
      writes.append(
        EnrichmentUpsert(
          userID: contact.userID, contactID: contact.id, field: field.rawValue, source: source,
          value: value.value, confidence: value.confidence, fetchedAt: value.fetchedAt,
          isNew: write == .insert))
      if write.isNewToUser { enriched[contact.userID, default: []].insert(contact.id) }
    }
    batch.counts.addRead(OwnerCounter.contacts, prepared.contacts.count + prepared.unchanged)
    for contact in prepared.contacts {
      batch.counts.addSkipped(EnrichmentFetchCounter.contactPhoneMalformed, contact.channels.malformedPhones)
      batch.counts.addSkipped(EnrichmentFetchCounter.contactEmailMalformed, contact.channels.malformedEmails)
    }
    written.formUnion(try applyRinNetwork(prepared, batch: batch, put: put))
    let cached = try provider.map { try applyProvider($0, prepared, batch: batch, put: put) } ?? [:]
    try EnrichmentQueries(tx: tx).putEnrichments(writes)
    let (checks, dueAt) = checks(prepared, cached: cached)
    for (user, contacts) in enriched.sorted(by: { $0.key < $1.key }) {
      try tx.enqueue(
        OutboxMessage(
          userID: user, kind: .contactEnrichment,
          deepLink: Notifications.contactEnrichmentDeepLink(contactIDs: contacts),
          payload: #"{"contacts":\#(contacts.count)}"#,
          dedupeKey: Notifications.contactEnrichmentKey(user: user, runID: runID)),
        at: now)
    }
    return Applied(dueAt: dueAt, checks: checks, written: written)
  }

  private typealias Put = (EnrichmentContactRow, EnrichmentField, String, EnrichmentValue) throws -> Void

  /// Returns the owners whose contacts it linked to another Rin user.
  private func applyRinNetwork(_ prepared: PreparedBatch, batch: UserBatch, put: Put) throws -> Set<UserID> {
    var linked: Set<UserID> = []
    let users = try EnrichmentQueries(tx: batch.tx).verifiedUsers(
      withPhones: Set(prepared.contacts.flatMap(\.channels.e164s)))
    for contact in prepared.contacts {
      let outcome = RinNetworkMatch.resolve(
        owner: contact.row.userID, usersByPhone: contact.channels.e164s.map { users[$0] ?? [] })
      switch outcome {
      case .user(let user):
        guard !contact.edited.contains(.rinUser) else {
          batch.counts.addSkipped(ProviderEnrichmentRule.Skip.editedByUser)
          continue
        }
        if contact.row.rinUserID != user {
          try EnrichmentQueries(tx: batch.tx).linkRinUser(contactID: contact.row.id, userID: user)
          linked.insert(contact.row.userID)
        }
        try put(
          contact.row, .rinUser, EnrichmentSource.rinNetwork,
          EnrichmentValue(value: String(user), confidence: 1, fetchedAt: now))
      case .ownNumber: batch.counts.addSkipped(EnrichmentFetchCounter.contactPhoneIsTheOwnersOwnNumber)
      case .ambiguous: batch.counts.addSkipped(EnrichmentFetchCounter.contactPhonesOfSeveralVerifiedUsers)
      case .none: break
      }
    }
    return linked
  }

  /// The settings a contact's values depend on, as its check records them.
  var checkSettings: String { RecheckRule.settings(provider: provider) }

  /// Each checked contact is left alone by later runs until it changes or a cached answer of
  /// its expires (an unanswered key makes it due at the next run).
  /// Returns the checks with, per owner, the earliest due time among them.
  private func checks(_ prepared: PreparedBatch, cached: [String: LookupRow]) -> (
    [(contactID: ContactID, userID: UserID, check: EnrichmentCheck)], [UserID: UTCInstant]
  ) {
    let settings = EnrichmentCheck.settingsKey(checkSettings)
    var dueByOwner: [UserID: UTCInstant] = [:]
    let checks = prepared.contacts.map { contact in
      let expiries =
        contact.skipsProvider || provider == nil
        ? []
        : contact.channels.lookups.map {
          prepared.answer($0.id, owner: contact.row.userID, current: cached)?.expiresAt
        }
      let dueAt = EnrichmentCheck.dueAt(expiries: expiries, at: now)
      if let dueAt { dueByOwner[contact.row.userID] = min(dueByOwner[contact.row.userID] ?? dueAt, dueAt) }
      return (
        contactID: contact.row.id, userID: contact.row.userID,
        check: EnrichmentCheck(
          fingerprint: contact.fingerprint, settings: settings, dueAt: dueAt, rinUsers: contact.rinUsers)
      )
    }
    return (checks, dueByOwner)
  }

  /// Writes the cached provider values; returns the cache rows it read, by key.
  private func applyProvider(
    _ provider: (name: String, minLikelihood: Int), _ prepared: PreparedBatch, batch: UserBatch, put: Put
  ) throws -> [String: LookupRow] {
    let rows = try EnrichmentQueries(tx: batch.tx).lookups(
      provider: provider.name, keys: Set(prepared.providerLookups.keys))
    for contact in prepared.contacts {
      guard !contact.skipsProvider else {
        if contact.hasChannels {
          batch.counts.addSkipped(EnrichmentFetchCounter.everyProviderFieldEdited)
        }
        continue
      }
      guard !contact.channels.lookups.isEmpty else { continue }
      var matches: [ProviderMatch] = []
      for lookup in contact.channels.lookups {
        guard let row = prepared.answer(lookup.id, owner: contact.row.userID, current: rows),
          row.expiresAt > now, row.status == .match
        else { continue }
        guard let cached = CachedMatch.read(row.response) else {
          batch.counts.addSkipped(EnrichmentFetchCounter.cachedProviderResponseUnreadable)
          continue
        }
        matches.append(cached.match(key: row.key, fetchedAt: row.fetchedAt))
      }
      let outcome = ProviderEnrichmentRule.choose(
        matches: matches, minLikelihood: provider.minLikelihood, edited: contact.edited)
      for (reason, count) in outcome.skipped { batch.counts.addSkipped(reason, count) }
      for (field, value) in outcome.values.sorted(by: { $0.key < $1.key }) {
        try put(contact.row, field, provider.name, value)
      }
    }
    return rows
  }
}
