import RinDomain

/// Of one owner's contacts, those whose numbers fall in a bucket (`RinPhoneSuffixes.bucket`)
/// that held a verified Rin user when the owner was last examined, by bucket: the contacts a
/// verified user's departure can concern. When an owner's buckets changed only because such
/// users left (`VerifiedUsersDigest.digest(of:beforeDeparturesSince:)`), these are the only
/// contacts whose checks can differ, so the rest of the book need not be read. Ids only.
///
/// Kept as text: `bucket:contact,contact;bucket:contact`, buckets and contacts ascending.
public struct OccupiedBuckets: Sendable, Equatable {
  public private(set) var contactsByBucket: [Int64: Set<ContactID>] = [:]

  public init() {}

  /// `contact`'s numbers fall in `buckets`; those that hold a verified user (`isOccupied`) list it.
  public mutating func add(contact: ContactID, buckets: some Sequence<Int64>, isOccupied: (Int64) -> Bool) {
    for bucket in buckets where isOccupied(bucket) {
      contactsByBucket[bucket, default: []].insert(contact)
    }
  }

  /// The contacts listed under any of `buckets`.
  public func contacts(in buckets: some Sequence<Int64>) -> Set<ContactID> {
    var found = Set<ContactID>()
    for bucket in buckets { found.formUnion(contactsByBucket[bucket] ?? []) }
    return found
  }

  /// Only the buckets that still hold a verified user.
  public func keeping(_ isOccupied: (Int64) -> Bool) -> OccupiedBuckets {
    var kept = OccupiedBuckets()
    kept.contactsByBucket = contactsByBucket.filter { isOccupied($0.key) }
    return kept
  }

  public var text: String {
    contactsByBucket.sorted { $0.key < $1.key }.map { bucket, contacts in
      "\(bucket):" + BucketList.text(contacts.sorted().map(\.rawValue))
    }.joined(separator: ";")
  }

  /// nil when `text` is not such a list (a bucket without contacts, anything but the digits
  /// and separators above).
  public static func parse(_ text: String) -> OccupiedBuckets? {
    var parsed = OccupiedBuckets()
    guard !text.isEmpty else { return parsed }
    for entry in text.split(separator: ";", omittingEmptySubsequences: false) {
      let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, let bucket = BucketList.parse(String(parts[0])), bucket.count == 1,
        let contacts = BucketList.parse(String(parts[1])), !contacts.isEmpty
      else { return nil }
      parsed.contactsByBucket[bucket[0], default: []].formUnion(contacts.map(ContactID.init(rawValue:)))
    }
    return parsed
  }
}
