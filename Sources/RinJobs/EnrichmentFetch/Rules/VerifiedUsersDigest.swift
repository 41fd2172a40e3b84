import RinDomain

/// Which verified Rin users an owner's contacts may be, as one number: for each bucket of
/// numbers (`RinPhoneSuffixes.bucket`), a digest of the live verified users in it (id and
/// number). An owner's digest is that of the buckets their contacts' numbers fall in, so it
/// changes when a user in one of them verifies a number, changes it or leaves, and not when
/// anyone else does. A number whose digits cannot judge it is in the bucket of its E.164 form,
/// the only users it can be; a number without one is in no bucket: no user can change it.
public struct VerifiedUsersDigest: Sendable {
  private var byBucket: [Int64: UInt64] = [:]
  /// The buckets with a verified user (a sum of digests alone could come to zero).
  private var occupied: Set<Int64> = []
  /// Verified users deleted lately (`addDeparted`), by bucket: when each was deleted, and the
  /// digest they added to their bucket while live.
  private var departed: [Int64: [(deletedAt: UTCInstant, digest: UInt64)]] = [:]

  public init() {}

  public mutating func add(userID: UserID, verifiedE164 number: String) {
    let bucket = RinPhoneSuffixes.bucket(verifiedE164: number)
    byBucket[bucket, default: 0] &+= Self.userDigest(userID, number)
    occupied.insert(bucket)
  }

  /// A user who had verified `number` and was deleted at `deletedAt`: not in any bucket's
  /// digest, but known, so that the digest an owner had before the departure can be told apart
  /// from any other change (`digest(of:beforeDeparturesSince:)`).
  public mutating func addDeparted(userID: UserID, verifiedE164 number: String, deletedAt: UTCInstant) {
    let bucket = RinPhoneSuffixes.bucket(verifiedE164: number)
    departed[bucket, default: []].append((deletedAt, Self.userDigest(userID, number)))
  }

  private static func userDigest(_ userID: UserID, _ number: String) -> UInt64 {
    var hash = FNV1a()
    hash.add(String(userID))
    hash.add(number)
    return hash.value
  }

  /// The digest of an owner whose contacts' numbers fall in `buckets` (distinct); buckets
  /// without a verified user add nothing. Bucket -1, which stored rows may hold and nothing
  /// writes, holds nobody: an owner stored with it is examined once more.
  public func digest(of buckets: some Sequence<Int64>) -> Int64 {
    digest(of: buckets) { byBucket[$0] ?? 0 }
  }

  /// The digest `digest(of:)` gave while the verified users deleted at or after `since` were
  /// still live (as `addDeparted` knows them). When an owner's stored digest is this one, the
  /// only change among the verified users of their buckets is those departures.
  public func digest(of buckets: some Sequence<Int64>, beforeDeparturesSince since: UTCInstant) -> Int64 {
    digest(of: buckets) { bucket in
      var users = byBucket[bucket] ?? 0
      for user in departed[bucket] ?? [] where user.deletedAt >= since { users &+= user.digest }
      return users
    }
  }

  /// Of `buckets`, those a verified user deleted at or after `since` was in.
  public func bucketsLeft(in buckets: some Sequence<Int64>, since: UTCInstant) -> [Int64] {
    buckets.filter { bucket in departed[bucket]?.contains { $0.deletedAt >= since } ?? false }
  }

  /// Whether a verified user's number falls in `bucket`.
  public func holdsUsers(in bucket: Int64) -> Bool {
    occupied.contains(bucket)
  }

  private func digest(of buckets: some Sequence<Int64>, users: (Int64) -> UInt64) -> Int64 {
    var digest: UInt64 = 0
    for bucket in buckets {
      let users = users(bucket)
      guard users != 0 else { continue }
      // Mixed with the bucket, so that equal user sums in two buckets do not cancel out.
      digest &+= (users ^ UInt64(bitPattern: bucket)) &* 0x0000_0100_0000_01B3
    }
    return Int64(bitPattern: digest)
  }

  /// Whether any verified user's number falls in one of `buckets`: when none does, no number
  /// in them is any verified user's (a number equal to a user's `phone_e164` shares its bucket).
  public func holdsUsers(inAnyOf buckets: some Sequence<Int64>) -> Bool {
    buckets.contains(where: occupied.contains)
  }

  /// A contact's key: the digest of its numbers' `buckets` mixed with the digest of the parser
  /// that bucketed the numbers its digits cannot judge, so that a new parser is a new key.
  public func key(of buckets: some Sequence<Int64>, parser: Int64) -> Int64 {
    var hash = FNV1a()
    hash.add(String(parser))
    hash.add(String(digest(of: buckets)))
    return Int64(bitPattern: hash.value)
  }
}
