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

  public init() {}

  public mutating func add(userID: Int64, verifiedE164 number: String) {
    var hash = FNV1a()
    hash.add(String(userID))
    hash.add(number)
    let bucket = RinPhoneSuffixes.bucket(verifiedE164: number)
    byBucket[bucket, default: 0] &+= hash.value
    occupied.insert(bucket)
  }

  /// The digest of an owner whose contacts' numbers fall in `buckets` (distinct); buckets
  /// without a verified user add nothing. A bucket no longer written (-1, once every number the
  /// digits could not judge) holds nobody: an owner stored with it is examined once more.
  public func digest(of buckets: some Sequence<Int64>) -> Int64 {
    var digest: UInt64 = 0
    for bucket in buckets {
      guard let users = byBucket[bucket], users != 0 else { continue }
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
