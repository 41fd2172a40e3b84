import RinDomain
import RinStorage

/// Which of an examined owner's contacts enrichment-fetch reads: the whole book, or only the
/// contacts whose checks cannot tell by themselves that nothing changed.
///
/// An owner readable in part (`EnrichmentOwners.readableInPart`) had every live contact checked
/// at its last examination, under the same region. A contact stamped no later than that
/// examination, less `ChangeStamp.margin` (a write may commit that long after the time it
/// stamps), is as its check saw it; when the check alone says it is unchanged
/// (`RecheckRule.isUnchanged(unstamped:owner:)`: not due, same settings, the same verified users
/// among its numbers' buckets), the examination needs nothing of it but what the check kept,
/// its numbers' buckets and its due time. The owner's other contacts are read in full: those
/// stamped since (one range of the index of contacts by owner and change stamp) and, by key,
/// those whose check cannot tell. When those are most of the book, the whole book is read.
///
/// On a steady night this reads the few contacts that changed instead of the changed owners'
/// whole books (at M, 117,512 contacts read to find 5,442 that changed or were due).
struct BookReads: Equatable {
  /// Owners whose every live contact is read.
  var whole: [UserID] = []
  /// Owners of whom the contacts stamped after `stampedAfter`, and `contacts`, are read.
  var inPart: [UserID] = []
  /// The earliest of the `inPart` owners' thresholds: one statement reads them all, and a
  /// contact of an owner with a later threshold read anyway is checked as usual.
  var stampedAfter: Int64 = .max
  /// Contacts of `inPart` owners not stamped since, whose checks cannot tell: read by key.
  var contacts: [ContactID] = []
  /// Contacts of `inPart` owners not stamped since that their checks settle without a read
  /// (`RecheckRule.recheckedByBuckets`), each with the check to store.
  var recheckedByBuckets: [LiveContactCheck] = []

  /// `live`: every live contact of `owners.examined`, with its check.
  static func plan(_ owners: EnrichmentOwners, live: [LiveContactCheck], recheck: RecheckRule) -> BookReads {
    var threshold: [UserID: Int64] = [:]
    for user in owners.readableInPart {
      guard let examinedAt = owners.lastExaminedAt[user] else { continue }
      threshold[user] = ChangeStamp.after(now: examinedAt, end: examinedAt).seconds
    }
    var stamped: [UserID: Int] = [:]
    var byKey: [UserID: [ContactID]] = [:]
    var rechecked: [UserID: [LiveContactCheck]] = [:]
    var count: [UserID: Int] = [:]
    for contact in live {
      guard let after = threshold[contact.userID] else { continue }
      count[contact.userID, default: 0] += 1
      if contact.stamp > after {
        stamped[contact.userID, default: 0] += 1
      } else if recheck.isUnchanged(unstamped: contact.check, owner: contact.userID) {
        continue
      } else if let check = recheck.recheckedByBuckets(unstamped: contact.check, owner: contact.userID) {
        var settled = contact
        settled.check = check
        rechecked[contact.userID, default: []].append(settled)
      } else {
        byKey[contact.userID, default: []].append(contact.contactID)
      }
    }
    var reads = BookReads()
    for user in owners.examined {
      let read = stamped[user, default: 0] + byKey[user, default: []].count
      // Read by key, a contact costs about what it costs read with its whole book. An owner
      // whose verified users only left has only their contacts in `live`: never read whole.
      guard let after = threshold[user],
        owners.departuresOnly[user] != nil || read * 2 <= count[user, default: 0]
      else {
        reads.whole.append(user)
        continue
      }
      reads.inPart.append(user)
      reads.stampedAfter = min(reads.stampedAfter, after)
      reads.contacts += byKey[user, default: []]
      reads.recheckedByBuckets += rechecked[user, default: []]
    }
    return reads
  }

  /// The contacts of `inPart` owners not read (ids not in `read`): known by their checks.
  func unread(_ live: [LiveContactCheck], read: some Sequence<ContactID>) -> [LiveContactCheck] {
    let owners = Set(inPart)
    let readIDs = Set(read)
    return live.filter { owners.contains($0.userID) && !readIDs.contains($0.contactID) }
  }
}
