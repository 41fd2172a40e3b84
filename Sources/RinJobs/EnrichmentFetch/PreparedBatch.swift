import RinDomain
import RinProviderClient
import RinStorage

/// A batch's contacts and what normalization made of them, read before the batch's
/// transaction while the provider is called. Raw numbers and addresses are dropped once
/// normalized: a batch holds only what the rules need.
struct PreparedBatch: Sendable {
  struct Contact: Sendable {
    var row: EnrichmentContactRow
    var channels: ContactChannels
    var edited: EditedFields
    /// The contact has at least one number or address, well formed or not.
    var hasChannels: Bool
    /// What this check of the contact will be remembered as (its due time comes later).
    var fingerprint: Int64
    /// The verified users this check saw among the contact's numbers.
    var rinUsers: RinUsersSeen
    /// Every field a provider could fill is edited: the contact is not looked up.
    var skipsProvider: Bool { edited.blocksEveryProviderField }
  }

  /// The contacts to check: those that changed, are due, or whose verified users changed.
  var contacts: [Contact]
  /// Contacts left alone: nothing they depend on changed since their last check.
  var unchanged: Int
  /// Of those, the ones not read at all: known by their checks (`BookReads`).
  var leftToChecks = 0
  /// Of those, the ones whose checks are stored again with tonight's verified users
  /// (`BookReads.recheckedByBuckets`).
  var recheckedByBuckets: [(contactID: ContactID, userID: UserID, check: EnrichmentCheck)] = []
  /// Each key the provider could be asked about, once.
  var providerLookups: [String: ProviderLookup]
  /// The owners examined (`EnrichmentOwners`): the contacts above are theirs.
  var owners: EnrichmentOwners = EnrichmentOwners()
  /// The buckets of every examined owner's contacts' numbers (`RinPhoneSuffixes.bucket`),
  /// checked or unchanged; an examined owner without numbers has an empty set.
  var buckets: [UserID: Set<Int64>] = [:]
  /// Per examined owner, their contacts in buckets that hold a verified user tonight.
  var occupied: [UserID: OccupiedBuckets] = [:]
  /// Per examined owner, the earliest `due_at` of their contacts left unchanged.
  var unchangedDueAt: [UserID: UTCInstant] = [:]
  /// The contacts' digests to store, as read (`EnrichmentOwners.digestsToStore`).
  var digests: [ContactDigest] = []
  /// The answers the batch's lookups replaced, for the owners before the first that asked again.
  var earlierAnswers: [String: EarlierAnswer] = [:]

  /// A cached answer as it stood before the batch asked its key again, and the first owner (in
  /// id order) whose next visit it did not outlast (`RefreshPhase`).
  struct EarlierAnswer: Sendable {
    var row: LookupRow
    var firstAsker: UserID
  }

  /// The answer to key `id` for a contact of `owner`: as a walk of one owner per batch would
  /// give it. An owner before the first who asked again gets the answer as it stood,
  /// which outlasts its next visit; the others get `current`, tonight's if it was asked again.
  /// So what an owner is given never depends on which owners share its batch.
  func answer(_ id: String, owner: UserID, current: [String: LookupRow]) -> LookupRow? {
    if let earlier = earlierAnswers[id], owner < earlier.firstAsker { return earlier.row }
    return current[id]
  }

  /// Contacts per parallel slice: parsing numbers (libphonenumber) is most of a batch's CPU.
  static let sliceSize = 2_000

  /// Normalizes the batch's contacts in slices on all cores, keeping their order.
  static func make(
    _ rows: [EnrichmentContactRow], checks: [ContactID: EnrichmentCheck], recheck: RecheckRule,
    normalizer: any ContactNormalizing, forProvider: Bool
  ) async -> PreparedBatch {
    // Each contact's fingerprint is computed once: to compare with its stored check, then kept.
    var due: [(row: EnrichmentContactRow, fingerprint: Int64)] = []
    var batch = PreparedBatch(contacts: [], unchanged: 0, providerLookups: [:])
    var unchangedDueAt: [UserID: UTCInstant] = [:]
    for row in rows {
      let fingerprint = RecheckRule.fingerprint(row)
      if !recheck.isUnchanged(row, fingerprint: fingerprint, stored: checks[row.id]) {
        // Its buckets come with its parse (`ContactChannels`).
        due.append((row, fingerprint))
        continue
      }
      if let seen = checks[row.id]?.rinUsers {
        // The buckets its check kept: its numbers and region are the same (same fingerprint).
        batch.add(row.id, of: row.userID, buckets: seen.buckets, recheck: recheck)
      } else {
        // Left alone without kept buckets only when every number is judged by its digits
        // (`RinPhoneSuffixes.mayMatch`), so they need no parse; the parser stays the judge
        // should that ever change.
        let region = row.ownerRegion
        batch.add(
          row.id, of: row.userID,
          buckets: row.phones.compactMap { raw in
            RinPhoneSuffixes.bucket(raw: raw, e164: { normalizer.e164(raw: $0, ownerRegion: region) })
          }, recheck: recheck)
      }
      if let dueAt = checks[row.id]?.dueAt {
        unchangedDueAt[row.userID] = min(unchangedDueAt[row.userID] ?? dueAt, dueAt)
      }
    }
    let unchanged = rows.count - due.count
    let rows = due
    let slices = stride(from: 0, to: rows.count, by: sliceSize).map {
      Array(rows[$0..<min($0 + sliceSize, rows.count)])
    }
    let prepared = await withTaskGroup(of: (Int, [Contact]).self) { group in
      for (index, slice) in slices.enumerated() {
        group.addTask {
          (
            index,
            slice.map { contact($0, recheck: recheck, normalizer: normalizer, forProvider: forProvider) }
          )
        }
      }
      var done: [Int: [Contact]] = [:]
      for await (index, contacts) in group { done[index] = contacts }
      return done
    }
    let contacts = slices.indices.flatMap { prepared[$0] ?? [] }
    for contact in contacts {
      batch.add(contact.row.id, of: contact.row.userID, buckets: contact.channels.buckets, recheck: recheck)
    }
    var lookups: [String: ProviderLookup] = [:]
    for contact in contacts where !contact.skipsProvider {
      for lookup in contact.channels.lookups { lookups[lookup.id] = lookup }
    }
    batch.contacts = contacts
    batch.unchanged = unchanged
    batch.providerLookups = lookups
    batch.unchangedDueAt = unchangedDueAt
    return batch
  }

  /// `contact` of `owner` has numbers in `buckets`: the owner's buckets, and the contacts of
  /// theirs in buckets that hold a verified user tonight.
  private mutating func add(
    _ contact: ContactID, of owner: UserID, buckets contactBuckets: some Collection<Int64>,
    recheck: RecheckRule
  ) {
    buckets[owner, default: []].formUnion(contactBuckets)
    occupied[owner, default: OccupiedBuckets()].add(
      contact: contact, buckets: contactBuckets, isOccupied: recheck.verified.holdsUsers(in:))
  }

  /// Owners whose verified users only left (`EnrichmentOwners.departuresOnly`): their buckets
  /// and occupied buckets as stored, the latter without those that no longer hold a verified
  /// user. Right only because their fingerprint matched: no contact was written since, so none
  /// changed its numbers.
  mutating func addKept(
    _ kept: [UserID: (buckets: Set<Int64>, occupied: OccupiedBuckets, dueAt: UTCInstant?)],
    recheck: RecheckRule
  ) {
    for (owner, stored) in kept {
      buckets[owner, default: []].formUnion(stored.buckets)
      let still = stored.occupied.keeping(recheck.verified.holdsUsers(in:))
      var merged = occupied[owner] ?? OccupiedBuckets()
      for (bucket, contacts) in still.contactsByBucket {
        for contact in contacts { merged.add(contact: contact, buckets: [bucket], isOccupied: { _ in true }) }
      }
      occupied[owner] = merged
    }
  }

  /// Contacts of owners read in part (`BookReads`) that were not read: unchanged by their
  /// checks, which kept their numbers' buckets and due time.
  mutating func addUnchangedByCheck(_ contacts: [LiveContactCheck], recheck: RecheckRule) {
    for contact in contacts {
      guard let check = contact.check else { continue }
      add(contact.contactID, of: contact.userID, buckets: check.rinUsers?.buckets ?? [], recheck: recheck)
      if let dueAt = check.dueAt {
        unchangedDueAt[contact.userID] = min(unchangedDueAt[contact.userID] ?? dueAt, dueAt)
      }
      unchanged += 1
      leftToChecks += 1
    }
  }

  private static func contact(
    _ due: (row: EnrichmentContactRow, fingerprint: Int64), recheck: RecheckRule,
    normalizer: any ContactNormalizing, forProvider: Bool
  ) -> Contact {
    let row = due.row
    let edited = EditedFields(row.editedFields)
    // A contact whose every provider field is edited is never looked up: nothing to hash.
    let channels = ContactChannels(
      row, normalizer: normalizer, forProvider: forProvider && !edited.blocksEveryProviderField)
    var slim = row
    slim.phones = []
    slim.emails = []
    return Contact(
      row: slim, channels: channels, edited: edited, hasChannels: !row.phones.isEmpty || !row.emails.isEmpty,
      fingerprint: due.fingerprint, rinUsers: recheck.seen(channels.buckets))
  }
}
