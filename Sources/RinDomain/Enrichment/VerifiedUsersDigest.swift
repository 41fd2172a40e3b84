/// Which verified Rin users an owner's contacts may be, as one number: for each bucket of
/// numbers (`RinPhoneSuffixes.bucket`), a digest of the live verified users in it (id and
/// number). An owner's digest is that of the buckets their contacts' numbers fall in, so it
/// changes when a user in one of them verifies a number, changes it or leaves, and not when
/// anyone else does. A number the digits cannot judge may be any verified user's: its bucket's
/// digest is that of all of them.
public struct VerifiedUsersDigest: Sendable {
  private var byBucket: [Int64: UInt64] = [:]
  private var all: UInt64 = 0

  public init() {}

  public mutating func add(userID: Int64, verifiedE164 number: String) {
    var hash = FNV1a()
    hash.add(String(userID))
    hash.add(number)
    all &+= hash.value
    if let bucket = RinPhoneSuffixes.bucket(verifiedE164: number) {
      byBucket[bucket, default: 0] &+= hash.value
    }
  }

  /// The buckets that hold a verified user, the unjudged one included: an owner's other
  /// buckets cannot change their digest.
  public var buckets: [Int64] { byBucket.keys.sorted() + [RinPhoneSuffixes.unjudgedBucket] }

  /// The digest of an owner whose contacts' numbers fall in `buckets` (distinct); buckets
  /// without a verified user add nothing, so the owner's buckets among `buckets` give the same.
  public func digest(of buckets: some Sequence<Int64>) -> Int64 {
    var digest: UInt64 = 0
    for bucket in buckets {
      let users = bucket == RinPhoneSuffixes.unjudgedBucket ? all : byBucket[bucket] ?? 0
      guard users != 0 else { continue }
      // Mixed with the bucket, so that equal user sums in two buckets do not cancel out.
      digest &+= (users ^ UInt64(bitPattern: bucket)) &* 0x0000_0100_0000_01B3
    }
    return Int64(bitPattern: digest)
  }
}
