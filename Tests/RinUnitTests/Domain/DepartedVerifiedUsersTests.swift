import RinDomain
import RinJobs
import RinTestSupport
import Testing

/// An owner whose buckets changed only because verified users left has only the contacts that
/// were in those users' buckets checked (docs/JOBS.md "A verified user's departure"): the digest
/// before the departures must tell that case from every other change, and the occupied buckets
/// must list exactly the contacts a departure can concern.
@Suite("enrichment: verified users who left", .onItsOwnThread)
struct DepartedVerifiedUsersTests {
  static let leftAt = UTCInstant(seconds: 1_000_000)
  static let x = "+14155550123"
  static let y = "+442079460958"

  /// Before: users 1 (x) and 2 (y) verified. Tonight: user 1 deleted at `leftAt`.
  static func tonight() -> VerifiedUsersDigest {
    var users = VerifiedUsersDigest()
    users.add(userID: 2, verifiedE164: y)
    users.addDeparted(userID: 1, verifiedE164: x, deletedAt: leftAt)
    return users
  }

  static func before() -> VerifiedUsersDigest {
    var users = VerifiedUsersDigest()
    users.add(userID: 1, verifiedE164: x)
    users.add(userID: 2, verifiedE164: y)
    return users
  }

  static let buckets = [RinPhoneSuffixes.bucket(verifiedE164: x), RinPhoneSuffixes.bucket(verifiedE164: y)]

  @Test func theDigestBeforeADepartureIsTheOneStoredBeforeIt() {
    let tonight = Self.tonight()
    #expect(tonight.digest(of: Self.buckets) != Self.before().digest(of: Self.buckets))
    #expect(
      tonight.digest(of: Self.buckets, beforeDeparturesSince: Self.leftAt)
        == Self.before().digest(of: Self.buckets))
    #expect(tonight.bucketsLeft(in: Self.buckets, since: Self.leftAt) == [Self.buckets[0]])
  }

  @Test func aDepartureBeforeTheLastExaminationIsNotAddedBack() {
    let tonight = Self.tonight()
    let after = Self.leftAt.saturating(plus: 1)
    // The owner was examined after user 1 left: their stored digest is tonight's.
    #expect(
      tonight.digest(of: Self.buckets, beforeDeparturesSince: after) == tonight.digest(of: Self.buckets))
    #expect(tonight.bucketsLeft(in: Self.buckets, since: after).isEmpty)
  }

  @Test func aJoinBesideTheDepartureIsAnotherChange() {
    var tonight = Self.tonight()
    tonight.add(userID: 3, verifiedE164: Self.x)
    #expect(
      tonight.digest(of: Self.buckets, beforeDeparturesSince: Self.leftAt)
        != Self.before().digest(of: Self.buckets),
      "a user who verified the departed user's number must send the owner the usual way")
  }

  @Test func aNumberChangedByAUserWhoStaysIsAnotherChange() {
    var tonight = VerifiedUsersDigest()
    tonight.add(userID: 1, verifiedE164: "+14155550199")
    tonight.add(userID: 2, verifiedE164: Self.y)
    #expect(
      tonight.digest(of: Self.buckets, beforeDeparturesSince: Self.leftAt)
        != Self.before().digest(of: Self.buckets))
  }

  @Test func occupiedBucketsListTheContactsOfOccupiedBucketsOnly() throws {
    let before = Self.before()
    var occupied = OccupiedBuckets()
    // 10: x's number; 11: x's and y's (ambiguous); 12: a number in no user's bucket.
    occupied.add(contact: 10, buckets: [Self.buckets[0]], isOccupied: before.holdsUsers(in:))
    occupied.add(contact: 11, buckets: Self.buckets, isOccupied: before.holdsUsers(in:))
    occupied.add(contact: 12, buckets: [42], isOccupied: before.holdsUsers(in:))
    #expect(occupied.contacts(in: [Self.buckets[0]]) == [10, 11])
    #expect(occupied.contacts(in: [Self.buckets[1]]) == [11])
    #expect(occupied.contacts(in: [42]).isEmpty)
    let kept = occupied.keeping(Self.tonight().holdsUsers(in:))
    #expect(kept.contacts(in: Self.buckets) == [11], "x's bucket holds nobody tonight")
    #expect(OccupiedBuckets.parse(occupied.text) == occupied)
    #expect(OccupiedBuckets.parse("") == OccupiedBuckets())
  }

  @Test(arguments: ["5", "5:", ":1", "5:1;", "5:1,;6:2", "-5:1", "5:1:2", "a:1"])
  func aMalformedListIsNone(_ text: String) {
    #expect(OccupiedBuckets.parse(text) == nil)
  }
}
