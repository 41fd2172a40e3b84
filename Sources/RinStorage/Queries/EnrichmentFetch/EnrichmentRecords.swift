import RinDomain

/// A live contact as enrichment-fetch reads it, with its owner's default region and its
/// numbers and addresses as typed.
public struct EnrichmentContactRow: Sendable, Equatable {
  public var id: Int64
  public var userID: Int64
  public var ownerRegion: String?
  public var editedFields: String?
  public var rinUserID: Int64?
  public var phones: [String] = []
  public var emails: [String] = []
  /// The contact's digest (`ContactDigest`) as read: its terms, computed by the database.
  public var digest: Int64 = 0
  /// The contact's change stamp (`max(created_at, updated_at, deleted_at)`).
  public var stamp: Int64 = 0
}

/// What enrichment-fetch stored of an owner's buckets (`enrichmentOwnerBuckets(of:)`): the
/// buckets of their contacts' numbers, and the contacts in those that held a verified user
/// (nil when stored before that was kept).
public struct StoredOwnerBuckets: Sendable, Equatable {
  public var buckets: [Int64]
  public var occupied: OccupiedBuckets?

  public init(buckets: [Int64], occupied: OccupiedBuckets? = nil) {
    self.buckets = buckets
    self.occupied = occupied
  }
}

/// A live contact of an examined owner, with its stored check (`enrichmentChecks(of:)`).
public struct LiveContactCheck: Sendable, Equatable {
  public var contactID: Int64
  public var userID: Int64
  /// The contact's change stamp (`max(created_at, updated_at, deleted_at)`).
  public var stamp: Int64
  public var check: EnrichmentCheck?

  public init(contactID: Int64, userID: Int64, stamp: Int64, check: EnrichmentCheck? = nil) {
    self.contactID = contactID
    self.userID = userID
    self.stamp = stamp
    self.check = check
  }
}

/// An `enrichment_lookups` row.
public struct LookupRow: Sendable, Equatable {
  public enum Status: String, Sendable { case match, noMatch = "no_match" }

  public var key: String
  public var status: Status
  /// The provider's item for a match (JSON: likelihood and person); nil for a no-match.
  public var response: String?
  public var fetchedAt: UTCInstant
  public var expiresAt: UTCInstant

  public init(key: String, status: Status, response: String?, fetchedAt: UTCInstant, expiresAt: UTCInstant) {
    self.key = key
    self.status = status
    self.response = response
    self.fetchedAt = fetchedAt
    self.expiresAt = expiresAt
  }
}

/// A stored `contact_enrichments` row's identity and content.
public struct StoredEnrichment: Sendable, Equatable {
  public var contactID: Int64
  public var field: String
  public var source: String
  public var value: String?
  public var confidence: Double?
}
