import RinDomain

/// A live contact as enrichment-fetch reads it, with its owner's default region and its
/// numbers and addresses as typed.
struct EnrichmentContactRow: Sendable, Equatable {
  var id: ContactID
  var userID: UserID
  var ownerRegion: String?
  var editedFields: String?
  var rinUserID: UserID?
  var phones: [String] = []
  var emails: [String] = []
  /// The contact's digest (`ContactDigest`) as read: its terms, computed by the database.
  var digest: Int64 = 0
  /// The contact's change stamp (`max(created_at, updated_at, deleted_at)`).
  var stamp: Int64 = 0
}

/// What enrichment-fetch stored of an owner's buckets (`enrichmentOwnerBuckets(of:)`): the
/// buckets of their contacts' numbers, and the contacts in those that held a verified user
/// (nil when stored before that was kept).
struct StoredOwnerBuckets: Sendable, Equatable {
  var buckets: [Int64]
  var occupied: OccupiedBuckets?

  init(buckets: [Int64], occupied: OccupiedBuckets? = nil) {
    self.buckets = buckets
    self.occupied = occupied
  }
}

/// A live contact of an examined owner, with its stored check (`enrichmentChecks(of:)`).
struct LiveContactCheck: Sendable, Equatable {
  var contactID: ContactID
  var userID: UserID
  /// The contact's change stamp (`max(created_at, updated_at, deleted_at)`).
  var stamp: Int64
  var check: EnrichmentCheck?

  init(contactID: ContactID, userID: UserID, stamp: Int64, check: EnrichmentCheck? = nil) {
    self.contactID = contactID
    self.userID = userID
    self.stamp = stamp
    self.check = check
  }
}

/// An `enrichment_lookups` row.
struct LookupRow: Sendable, Equatable {
  enum Status: String, Sendable { case match, noMatch = "no_match" }

  var key: String
  var status: Status
  /// The provider's item for a match (JSON: likelihood and person); nil for a no-match.
  var response: String?
  var fetchedAt: UTCInstant
  var expiresAt: UTCInstant

  init(key: String, status: Status, response: String?, fetchedAt: UTCInstant, expiresAt: UTCInstant) {
    self.key = key
    self.status = status
    self.response = response
    self.fetchedAt = fetchedAt
    self.expiresAt = expiresAt
  }
}

/// A stored `contact_enrichments` row's identity and content.
struct StoredEnrichment: Sendable, Equatable {
  var contactID: ContactID
  var field: String
  var source: String
  var value: String?
  var confidence: Double?
}
